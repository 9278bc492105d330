import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SessionInfo } from '#contract/account.js';
import { api, request } from '../../../lib/api-client';

/** `GET /api/account/sessions`: the browsers signed in to the account. */
export const listSessions = () =>
  api.get<{ sessions: SessionInfo[] }>('/api/account/sessions').then((answer) => answer.sessions);

export const sessionsQueryOptions = () =>
  queryOptions({ queryKey: ['account', 'sessions'], queryFn: listSessions });

export function useSessions() {
  return useQuery(sessionsQueryOptions());
}

/** `DELETE /api/account/sessions/{id}`: that browser's next call is refused (401). */
export const revokeSession = (id: string) =>
  request<{ success: boolean; message: string }>(
    'DELETE',
    `/api/account/sessions/${encodeURIComponent(id)}`,
  );

export function useRevokeSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeSession,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: sessionsQueryOptions().queryKey }),
  });
}
