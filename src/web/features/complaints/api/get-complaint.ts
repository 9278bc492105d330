import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ComplaintDetailsResponse } from '#contract/complaint.js';
import { api } from '../../../lib/api-client';
import { complaintsKey } from './list-complaints';

export const getComplaint = (id: string) =>
  api.get<ComplaintDetailsResponse>(`/api/complaints/${encodeURIComponent(id)}`);

export const complaintQueryOptions = (id: string) =>
  queryOptions({ queryKey: [...complaintsKey, 'one', id], queryFn: () => getComplaint(id) });

export function useComplaint(id: string) {
  return useQuery(complaintQueryOptions(id));
}
