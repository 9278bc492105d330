import { useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { SignedInResponse } from '#contract/auth.js';
import { rememberCsrfToken } from '../../../lib/api-client';
import { startSession } from './session-change';

export type SignedIn = z.infer<typeof SignedInResponse>;

/** After any call that signs a visitor in: the new session's token and user are current. */
export function useOnSignedIn() {
  const queryClient = useQueryClient();
  return async (answer: SignedIn) => {
    rememberCsrfToken(answer.csrfToken);
    await startSession(queryClient, answer.user);
  };
}
