import { useMutation, useQueryClient } from '@tanstack/react-query';
import type {
  AddDomainRequest,
  DomainChangeResponse,
  DomainVerification,
} from '#contract/domains.js';
import { api, request } from '../../../lib/api-client';
import { domainKeys } from './keys';

const domainPath = (domain: string) => `/api/domains/${encodeURIComponent(domain)}`;

/** Spec §7: first try without payment (402 with the price), then with the paymentIntentId. */
export const addDomain = (input: AddDomainRequest) =>
  api.post<DomainChangeResponse>('/api/domains', input);

/** Spec §4: removing a domain archives it: monitoring off, history kept. */
export const removeDomain = (domain: string) =>
  request<DomainChangeResponse>('DELETE', domainPath(domain));

/** Spec §7: empty body first (402 when payment is needed), then with the paymentIntentId. */
export const reactivateDomain = (domain: string, paymentIntentId?: string) =>
  api.post<DomainChangeResponse>(
    `${domainPath(domain)}/reactivate`,
    paymentIntentId ? { paymentIntentId } : {},
  );

/** Checks the published verification token now, by every method; answers where it stands. */
export const verifyDomain = (domain: string) =>
  api.post<DomainVerification>(`${domainPath(domain)}/verify`, {});

function useDomainMutation<Input, Output>(mutationFn: (input: Input) => Promise<Output>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSettled: async () => {
      await queryClient.invalidateQueries({ queryKey: domainKeys.all });
      // The plan's state (gate, Active badge, monthly total) follows the domains.
      await queryClient.invalidateQueries({ queryKey: ['subscription-status'] });
    },
  });
}

export const useAddDomain = () => useDomainMutation(addDomain);
export const useRemoveDomain = () => useDomainMutation(removeDomain);
export const useReactivateDomain = () =>
  useDomainMutation((input: { domain: string; paymentIntentId?: string }) =>
    reactivateDomain(input.domain, input.paymentIntentId),
  );
export const useVerifyDomain = () => useDomainMutation(verifyDomain);
