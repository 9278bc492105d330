import { queryOptions, useQuery } from '@tanstack/react-query';
import type { CurrentUser } from '#contract/auth.js';
import { ApiError, api } from '../../../lib/api-client';

/** The signed-in account, or null for a visitor (a 401 is an answer here, not a failure). */
export async function getCurrentUser(): Promise<CurrentUser | null> {
  try {
    return await api.get<CurrentUser>('/api/user/me');
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return null;
    throw error;
  }
}

/** Spec §7: checked afresh whenever a screen asks (zero stale time). */
export const currentUserQueryOptions = () =>
  queryOptions({ queryKey: ['current-user'], queryFn: getCurrentUser, staleTime: 0 });

export function useCurrentUser() {
  return useQuery(currentUserQueryOptions());
}
