import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, clearCsrfToken, requestFile } from '../../../lib/api-client';

/** `GET /api/account/export`: everything stored about the account, as a JSON file. */
export const exportAccountData = () =>
  requestFile('GET', '/api/account/export', 'conformly-account.json');

/** `POST /api/account/delete`: the account and its data go; this browser is signed out. */
export const deleteAccount = (confirmation: string) =>
  api.post<{ success: boolean; message: string }>('/api/account/delete', { confirmation });

export function useDeleteAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteAccount,
    onSuccess: () => {
      clearCsrfToken();
      queryClient.setQueryData(['current-user'], null);
      queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== 'current-user' });
    },
  });
}
