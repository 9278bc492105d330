import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import type { SignupRequest, SignupResponse } from '../../../../contract/auth';
import { api } from '../../../lib/api-client';
import { useOnSignedIn } from './signed-in';

export type SignupInput = z.input<typeof SignupRequest>;

/** The landing modal: an account without a password yet, and a first scan of the site. */
export const signup = (input: SignupInput) =>
  api.post<z.infer<typeof SignupResponse>>('/api/auth/signup', input);

export function useSignup() {
  const onSignedIn = useOnSignedIn();
  return useMutation({ mutationFn: signup, onSuccess: onSignedIn });
}
