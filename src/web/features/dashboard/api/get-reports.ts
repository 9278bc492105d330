import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { ReportsHub } from '#contract/dashboard.js';
import { api } from '../../../lib/api-client';

export const getReports = (domain: string | undefined, page: number) => {
  const query = new URLSearchParams({ page: String(page) });
  if (domain) query.set('domain', domain);
  return api.get<ReportsHub>(`/api/dashboard/reports?${query.toString()}`);
};

export const reportsQueryOptions = (domain: string | undefined, page: number) =>
  queryOptions({
    queryKey: ['dashboard', 'reports', domain ?? '', page],
    queryFn: () => getReports(domain, page),
    staleTime: 30_000,
    placeholderData: keepPreviousData,
  });

export function useReports(domain: string | undefined, page: number) {
  return useQuery(reportsQueryOptions(domain, page));
}
