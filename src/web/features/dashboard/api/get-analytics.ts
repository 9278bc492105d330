import { queryOptions, useQuery } from '@tanstack/react-query';
import type { DashboardAnalytics } from '#contract/dashboard.js';
import { api } from '../../../lib/api-client';

export const getAnalytics = () => api.get<DashboardAnalytics>('/api/dashboard/analytics');

export const analyticsQueryOptions = () =>
  queryOptions({
    queryKey: ['dashboard', 'analytics'],
    queryFn: getAnalytics,
    staleTime: 30_000,
  });

export function useAnalytics() {
  return useQuery(analyticsQueryOptions());
}
