import { queryOptions, useQuery } from '@tanstack/react-query';
import type { DomainList, PaymentRequiredResponse } from '#contract/domains.js';
import { api } from '../../../lib/api-client';
import { domainKeys } from './keys';
import { paymentRequiredOf } from './payment-required';

export type DomainsAnswer =
  | { kind: 'domains'; domains: DomainList }
  | { kind: 'payment-required'; notice: PaymentRequiredResponse };

/** Spec §2/§7: the account's domains, or the 402 that asks for Compliance Shield first. */
export async function getDomains(): Promise<DomainsAnswer> {
  try {
    return { kind: 'domains', domains: await api.get<DomainList>('/api/domains') };
  } catch (error) {
    const notice = paymentRequiredOf(error);
    if (notice) return { kind: 'payment-required', notice };
    throw error;
  }
}

/** Read afresh on each visit: monitoring scans, the lifecycle and verification move on alone. */
export const domainsQueryOptions = () =>
  queryOptions({ queryKey: domainKeys.list(), queryFn: getDomains, staleTime: 0 });

export function useDomains() {
  return useQuery(domainsQueryOptions());
}
