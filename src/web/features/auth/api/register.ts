import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import type { RegisterRequest } from '#contract/auth.js';
import { api } from '../../../lib/api-client';
import { useOnSignedIn, type SignedIn } from './signed-in';

export type RegisterInput = z.input<typeof RegisterRequest>;

export const register = (input: RegisterInput) => api.post<SignedIn>('/api/auth/register', input);

export function useRegister() {
  const onSignedIn = useOnSignedIn();
  return useMutation({ mutationFn: register, onSuccess: onSignedIn });
}
