import { queryOptions, useQuery } from '@tanstack/react-query';
import type { DomainBadge } from '#contract/badge.js';
import { api } from '../../../lib/api-client';

export const listBadges = () => api.get<DomainBadge[]>('/api/badges');

export const badgesQueryOptions = () =>
  queryOptions({ queryKey: ['badges'], queryFn: listBadges, staleTime: 0 });

/** The account's domains with their saved badge settings and whether each badge is live. */
export function useBadges() {
  return useQuery(badgesQueryOptions());
}
