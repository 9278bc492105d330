import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { DomainVerification, VerificationMethod } from '#contract/domains.js';
import { api } from '../../lib/api-client';

/**
 * Ownership verification of one of the account's domains (ADR 0007): where it stands and what to
 * publish, and a check now. Shared: the checkout's success screen and the domains page use it.
 */

const verificationKey = (domain: string) => ['domain-verification', domain] as const;

export const getDomainVerification = (domain: string) =>
  api.get<DomainVerification>(`/api/domains/${encodeURIComponent(domain)}/verification`);

export const domainVerificationQueryOptions = (domain: string) =>
  queryOptions({
    queryKey: verificationKey(domain),
    queryFn: () => getDomainVerification(domain),
    staleTime: 0,
  });

export function useDomainVerification(domain: string) {
  return useQuery(domainVerificationQueryOptions(domain));
}

export const verifyDomain = (domain: string, method?: VerificationMethod) =>
  api.post<DomainVerification>(
    `/api/domains/${encodeURIComponent(domain)}/verify`,
    method ? { method } : {},
  );

/** Checks now; the answer replaces the cached state, so the panel shows it at once. */
export function useVerifyDomain(domain: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (method?: VerificationMethod) => verifyDomain(domain, method),
    onSuccess: (answer) => queryClient.setQueryData(verificationKey(domain), answer),
  });
}
