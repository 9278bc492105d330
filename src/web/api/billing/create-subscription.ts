import { useMutation } from '@tanstack/react-query';
import type { CreateSubscriptionResponse } from '#contract/domains.js';
import { api } from '../../lib/api-client';

/** Spec §7: no body; answers the client secret the card form confirms with the provider. */
export const createSubscription = () =>
  api.post<CreateSubscriptionResponse>('/api/create-subscription', {});

export function useCreateSubscription() {
  return useMutation({ mutationFn: createSubscription });
}
