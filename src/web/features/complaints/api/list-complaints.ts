import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { ComplaintListResponse, ComplaintStatus, ComplaintType } from '#contract/complaint.js';
import { api } from '../../../lib/api-client';

/** What the inbox asks for: filters, search and one page (spec dashboard-area §2, §5). */
export interface ComplaintListFilter {
  domain?: string;
  status?: ComplaintStatus;
  type?: ComplaintType;
  search?: string;
  /** "Assigned to me": the signed-in person's complaints only. */
  assignedTo?: 'me';
  page: number;
  limit: number;
}

/** Every complaint query starts with this key, so a change refreshes list and details at once. */
export const complaintsKey = ['complaints'] as const;

export const listComplaints = (filter: ComplaintListFilter) => {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(filter)) {
    if (value !== undefined && value !== '') query.set(key, String(value));
  }
  return api.get<ComplaintListResponse>(`/api/complaints?${query.toString()}`);
};

export const complaintListQueryOptions = (filter: ComplaintListFilter) =>
  queryOptions({
    queryKey: [...complaintsKey, 'list', filter],
    queryFn: () => listComplaints(filter),
    // The list stays on screen while the next page or filter loads.
    placeholderData: keepPreviousData,
  });

export function useComplaintList(filter: ComplaintListFilter) {
  return useQuery(complaintListQueryOptions(filter));
}
