import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PublicStatusResponse } from '../../../../contract/public';
import { api } from '../../../lib/api-client';

export const getPublicStatus = (domain: string) =>
  api.get<PublicStatusResponse>(`/api/public/status/${encodeURIComponent(domain)}`);

export const publicStatusQueryOptions = (domain: string) =>
  queryOptions({ queryKey: ['public-status', domain], queryFn: () => getPublicStatus(domain) });

export function usePublicStatus(domain: string) {
  return useQuery(publicStatusQueryOptions(domain));
}
