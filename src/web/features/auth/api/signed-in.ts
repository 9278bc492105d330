import { useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { SignedInResponse } from '#contract/auth.js';
import { rememberCsrfToken } from '../../../lib/api-client';
import { currentUserQueryOptions } from './get-current-user';

export type SignedIn = z.infer<typeof SignedInResponse>;

/** After any call that signs a visitor in: the new session's token and user are current. */
export function useOnSignedIn() {
  const queryClient = useQueryClient();
  return (answer: SignedIn) => {
    rememberCsrfToken(answer.csrfToken);
    queryClient.setQueryData(currentUserQueryOptions().queryKey, answer.user);
  };
}
