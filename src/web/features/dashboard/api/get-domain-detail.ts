import { queryOptions, useQuery } from '@tanstack/react-query';
import type { DomainDetail } from '#contract/dashboard.js';
import { api } from '../../../lib/api-client';

export const getDomainDetail = (domain: string) =>
  api.get<DomainDetail>(`/api/dashboard/domains/${encodeURIComponent(domain)}`);

export const domainDetailQueryOptions = (domain: string) =>
  queryOptions({
    queryKey: ['dashboard', 'domain', domain],
    queryFn: () => getDomainDetail(domain),
    staleTime: 30_000,
  });

export function useDomainDetail(domain: string) {
  return useQuery(domainDetailQueryOptions(domain));
}
