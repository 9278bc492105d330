import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { PasswordChangeRequest } from '#contract/account.js';
import { api } from '../../../lib/api-client';
import { sessionsQueryOptions } from './sessions';

/** `POST /api/account/password`: every other browser is signed out. */
export const changePassword = (input: PasswordChangeRequest) =>
  api.post<{ success: boolean; message: string; signedOut: number }>(
    '/api/account/password',
    input,
  );

export function useChangePassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: changePassword,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: sessionsQueryOptions().queryKey }),
  });
}
