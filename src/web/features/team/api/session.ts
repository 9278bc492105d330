import { useQuery } from '@tanstack/react-query';
import type { SessionResponse } from '#contract/auth.js';
import { api } from '../../../lib/api-client';

/** Who is signed in, or null: the invitation page offers to accept, or to sign in first. */
export function useSignedInUser() {
  return useQuery({
    queryKey: ['current-user'],
    queryFn: async () => (await api.get<SessionResponse>('/api/session')).user,
    staleTime: 0,
  });
}
