import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import type { LoginRequest } from '#contract/auth.js';
import { api } from '../../../lib/api-client';
import { useOnSignedIn, type SignedIn } from './signed-in';

export type LoginInput = z.input<typeof LoginRequest>;

export const login = (input: LoginInput) => api.post<SignedIn>('/api/auth/login', input);

export function useLogin() {
  const onSignedIn = useOnSignedIn();
  return useMutation({ mutationFn: login, onSuccess: onSignedIn });
}
