import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import type { SignupRequest, SignupResponse } from '#contract/auth.js';
import { api } from '../../../lib/api-client';

export type SignupInput = z.input<typeof SignupRequest>;

/**
 * The landing modal: an unconfirmed account and a first scan of the site. Nobody is signed in;
 * the e-mailed link confirms the address and sets the password.
 */
export const signup = (input: SignupInput) =>
  api.post<z.infer<typeof SignupResponse>>('/api/auth/signup', input);

export function useSignup() {
  return useMutation({ mutationFn: signup });
}
