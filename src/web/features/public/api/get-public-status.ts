import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PublicStatusResponse } from '#contract/public.js';
import { api } from '../../../lib/api-client';

/**
 * The server lets caches keep the status for a minute; the page revalidates instead (a cheap 304
 * when nothing changed), so a refetch after the visitor reports a concern shows it at once.
 */
export const getPublicStatus = (domain: string) =>
  api.get<PublicStatusResponse>(`/api/public/status/${encodeURIComponent(domain)}`, {
    cache: 'no-cache',
  });

export const publicStatusQueryOptions = (domain: string) =>
  queryOptions({ queryKey: ['public-status', domain], queryFn: () => getPublicStatus(domain) });

export function usePublicStatus(domain: string) {
  return useQuery(publicStatusQueryOptions(domain));
}
