import { queryOptions, useQuery } from '@tanstack/react-query';
import type { DashboardOverview } from '#contract/dashboard.js';
import { ApiError, api } from '../../../lib/api-client';

export const getOverview = () => api.get<DashboardOverview>('/api/dashboard');

/** A 402 means no Compliance Shield: the overview then shows the plan card and the scans only. */
export const isPlanRequired = (error: unknown) => error instanceof ApiError && error.status === 402;

/** Read again with the scan list's rhythm (spec §7: fresh for 30 s, every 60 s). */
export const overviewQueryOptions = () =>
  queryOptions({
    queryKey: ['dashboard', 'overview'],
    queryFn: getOverview,
    staleTime: 30_000,
    refetchInterval: 60_000,
  });

export function useOverview() {
  return useQuery(overviewQueryOptions());
}
