import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AccountSettings } from '#contract/account.js';
import { api } from '../../../lib/api-client';
import { accountSettingsQueryOptions } from './settings';

/** `POST /api/account/tour`: finished or skipped, the tour does not show again for the account. */
export const completeTour = (outcome: 'finished' | 'skipped') =>
  api.post<{ success: boolean; message: string }>('/api/account/tour', { outcome });

export function useCompleteTour() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: completeTour,
    onMutate: () =>
      queryClient.setQueryData<AccountSettings>(accountSettingsQueryOptions().queryKey, (old) =>
        old ? { ...old, tourCompleted: true } : old,
      ),
  });
}
