import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { SubscribeRequest, SubscribeResponse } from '#contract/billing.js';
import { api } from '../../../lib/api-client';

export const subscribe = (input: SubscribeRequest) =>
  api.post<SubscribeResponse>('/api/subscribe', input);

export function useSubscribe() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: subscribe,
    onSuccess: (_answer, input) =>
      queryClient.invalidateQueries({ queryKey: ['checkout', input.scanId] }),
  });
}
