import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AccountSettings, EmailChangeRequest } from '#contract/account.js';
import { api } from '../../../lib/api-client';
import { accountSettingsQueryOptions } from './settings';

/** `POST /api/account/email`: a link goes to the new address; nothing changes until it is opened. */
export const requestEmailChange = (input: EmailChangeRequest) =>
  api.post<AccountSettings>('/api/account/email', input);

export function useRequestEmailChange() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: requestEmailChange,
    onSuccess: (settings) =>
      queryClient.setQueryData(accountSettingsQueryOptions().queryKey, settings),
  });
}

/** `POST /api/account/email/confirm`: the e-mailed link's token. */
export const confirmEmailChange = (token: string) =>
  api.post<{ success: boolean; message: string; email: string }>('/api/account/email/confirm', {
    token,
  });

export function useConfirmEmailChange() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: confirmEmailChange,
    onSuccess: () => queryClient.invalidateQueries(),
  });
}
