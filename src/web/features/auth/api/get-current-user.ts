import { queryOptions, useQuery } from '@tanstack/react-query';
import type { CurrentUser, SessionResponse } from '#contract/auth.js';
import { api } from '../../../lib/api-client';

/** The signed-in account, or null for a visitor (GET /api/session answers both with 200). */
export async function getCurrentUser(): Promise<CurrentUser | null> {
  return (await api.get<SessionResponse>('/api/session')).user;
}

/** Spec §7: checked afresh whenever a screen asks (zero stale time). */
export const currentUserQueryOptions = () =>
  queryOptions({ queryKey: ['current-user'], queryFn: getCurrentUser, staleTime: 0 });

/**
 * `refetchOnMount: false` for a reader that mounts only once the session gate around it has
 * checked the session: checking again then would only repeat the gate's request (issue 27).
 */
export function useCurrentUser(options: { refetchOnMount?: boolean } = {}) {
  return useQuery({ ...currentUserQueryOptions(), ...options });
}
