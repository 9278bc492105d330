import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AuthProviders } from '#contract/auth.js';
import { api } from '../../../lib/api-client';

/** Where the browser goes to sign in with Google (spec §7: GET /api/auth/google/initiate). */
export const googleSignInHref = '/api/auth/google/initiate';

/** The ways to sign in this server offers; they change only with its configuration. */
export const authProvidersQueryOptions = () =>
  queryOptions({
    queryKey: ['auth-providers'],
    queryFn: () => api.get<AuthProviders>('/api/auth/providers'),
    staleTime: Infinity,
  });

export function useAuthProviders() {
  return useQuery(authProvidersQueryOptions());
}
