import { QueryClient } from '@tanstack/react-query';

/**
 * Spec §7: queries never retry, never refetch on focus or interval and stay fresh until a
 * mutation invalidates them; mutations never retry.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: false,
        refetchOnWindowFocus: false,
        refetchOnReconnect: false,
        refetchInterval: false,
        staleTime: Infinity,
      },
      mutations: { retry: false },
    },
  });
}
