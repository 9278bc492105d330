import { QueryClient } from '@tanstack/react-query';
import { refetchOnMount } from './first-screen-data';

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
        // Not again for the first screen's data, read just before it rendered.
        refetchOnMount,
      },
      mutations: { retry: false },
    },
  });
}
