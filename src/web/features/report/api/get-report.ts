import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ReportResponse } from '../../../../contract/scan-api';
import { api } from '../../../lib/api-client';

/** The report with each engine's raw output, which the client-side exports need. */
export const getReport = (scanId: string) =>
  api.get<ReportResponse>(`/api/report/${encodeURIComponent(scanId)}?raw=true`);

export const reportQueryOptions = (scanId: string) =>
  queryOptions({ queryKey: ['report', scanId], queryFn: () => getReport(scanId) });

/** A scan still queued or running: its report is read again until the scan ends. */
export const isUnfinished = (report: ReportResponse | undefined) =>
  report?.scan.status === 'pending' || report?.scan.status === 'running';

export function useReport(scanId: string) {
  return useQuery({
    ...reportQueryOptions(scanId),
    refetchInterval: (query) => (isUnfinished(query.state.data) ? 2000 : false),
  });
}
