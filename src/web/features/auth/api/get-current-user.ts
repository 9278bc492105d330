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

export function useCurrentUser() {
  return useQuery(currentUserQueryOptions());
}
