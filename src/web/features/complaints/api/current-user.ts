import { useQuery } from '@tanstack/react-query';
import type { CurrentUser } from '#contract/auth.js';
import { api } from '../../../lib/api-client';

/** The signed-in account's id: a complaint can be assigned to it (spec §6 assignedTo). */
export function useCurrentUserId(): string | undefined {
  const me = useQuery({
    queryKey: ['complaints-current-user'],
    queryFn: () => api.get<CurrentUser>('/api/user/me'),
    staleTime: Infinity,
  });
  return me.data?.id;
}
