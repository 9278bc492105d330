import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api-client';

/** Spec §9: cancel anytime, with immediate effect. */
export const cancelSubscription = () =>
  api.post<{ message?: string }>('/api/subscription/cancel', {});

export function useCancelSubscription() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: cancelSubscription,
    // Everything a plan decides (domains, the gate, the current user's status) is read afresh.
    onSettled: () => queryClient.invalidateQueries(),
  });
}
