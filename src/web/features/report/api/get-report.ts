import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ReportResponse } from '../../../../contract/scan-api';
import { api } from '../../../lib/api-client';

/** The report with each engine's raw output, which the client-side exports need. */
export const getReport = (scanId: string) =>
  api.get<ReportResponse>(`/api/report/${encodeURIComponent(scanId)}?raw=true`);

export const reportQueryOptions = (scanId: string) =>
  queryOptions({ queryKey: ['report', scanId], queryFn: () => getReport(scanId) });

export function useReport(scanId: string) {
  return useQuery(reportQueryOptions(scanId));
}
