import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, clearCsrfToken } from '../../../lib/api-client';
import { endSession } from './session-change';

export const logout = () => api.post<unknown>('/api/auth/logout');

/** Spec §7: a failed log-out is only logged; the visitor is signed out on this side either way. */
export function useLogout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: logout,
    onError: (error) => console.warn('Log-out call failed', error),
    onSettled: async () => {
      clearCsrfToken();
      await endSession(queryClient);
    },
  });
}
