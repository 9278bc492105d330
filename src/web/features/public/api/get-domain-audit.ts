import { queryOptions, useQuery } from '@tanstack/react-query';
import type { DomainAuditResponse } from '#contract/public.js';
import { api } from '../../../lib/api-client';

export const getDomainAudit = (domain: string) =>
  api.get<DomainAuditResponse>(`/api/audit/${encodeURIComponent(domain)}`);

export const domainAuditQueryOptions = (domain: string) =>
  queryOptions({ queryKey: ['domain-audit', domain], queryFn: () => getDomainAudit(domain) });

export function useDomainAudit(domain: string) {
  return useQuery(domainAuditQueryOptions(domain));
}
