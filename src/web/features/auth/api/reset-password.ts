import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

interface Message {
  success: boolean;
  message: string;
}

/** Step 1: e-mail a 6-digit code (the server remembers the address in a cookie). */
export const requestResetCode = (input: { email: string }) =>
  api.post<Message>('/api/auth/reset-password-request', input);

/** Step 2: check the code before asking for a new password. */
export const verifyResetCode = (input: { code: string }) =>
  api.post<Message>('/api/auth/verify-reset-code', input);

/** Step 3: the new password, with the code again. */
export const completeReset = (input: { code: string; newPassword: string }) =>
  api.post<Message>('/api/auth/reset-password-complete', input);

/** The e-mailed link's page. */
export const resetWithToken = (input: { token: string; newPassword: string }) =>
  api.post<Message>('/api/auth/reset-password', input);

export const useRequestResetCode = () => useMutation({ mutationFn: requestResetCode });
export const useVerifyResetCode = () => useMutation({ mutationFn: verifyResetCode });
export const useCompleteReset = () => useMutation({ mutationFn: completeReset });
export const useResetWithToken = () => useMutation({ mutationFn: resetWithToken });
