import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ReportResponse } from '#contract/scan-api.js';
import { api } from '../../../lib/api-client';
import { documentHrefs } from './documents';

/** The report without the engines' raw output, which can be megabytes and only one page shows. */
export const getReport = (scanId: string) =>
  api.get<ReportResponse>(`/api/report/${encodeURIComponent(scanId)}`);

/** The report with each engine's raw output (the raw analysis page). */
export const getRawReport = (scanId: string) =>
  api.get<ReportResponse>(documentHrefs.rawReport(scanId));

/** A scan still queued or running: its report is read again until the scan ends. */
export const isUnfinished = (report: ReportResponse | undefined) =>
  report?.scan.status === 'pending' || report?.scan.status === 'running';

export const reportQueryOptions = (scanId: string) =>
  queryOptions({
    queryKey: ['report', scanId],
    queryFn: () => getReport(scanId),
    refetchInterval: (query) => (isUnfinished(query.state.data) ? 2000 : false),
  });

export const rawReportQueryOptions = (scanId: string) =>
  queryOptions({
    queryKey: ['report', scanId, 'raw'],
    queryFn: () => getRawReport(scanId),
    refetchInterval: (query) => (isUnfinished(query.state.data) ? 2000 : false),
  });

export function useReport(scanId: string) {
  return useQuery(reportQueryOptions(scanId));
}

export function useRawReport(scanId: string) {
  return useQuery(rawReportQueryOptions(scanId));
}
