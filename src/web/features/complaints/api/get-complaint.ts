import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ComplaintDetailsResponse } from '#contract/complaint.js';
import { api } from '../../../lib/api-client';
import { complaintsKey } from './list-complaints';

/** While a scan of the named page runs, the details look again this often for its findings. */
export const pageScanPollMs = 2000;

export const getComplaint = (id: string) =>
  api.get<ComplaintDetailsResponse>(`/api/complaints/${encodeURIComponent(id)}`);

export const complaintQueryOptions = (id: string) =>
  queryOptions({
    queryKey: [...complaintsKey, 'one', id],
    queryFn: () => getComplaint(id),
    refetchInterval: (query) => (query.state.data?.page?.pendingScanId ? pageScanPollMs : false),
  });

export function useComplaint(id: string) {
  return useQuery(complaintQueryOptions(id));
}
