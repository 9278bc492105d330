import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ReportResponse } from '#contract/scan-api.js';
import { api } from '../../../lib/api-client';

/** The merged report of one audited page: the page is one of the owner's scans (same id). */
export const getPageReport = (scanId: string) =>
  api.get<ReportResponse>(`/api/report/${encodeURIComponent(scanId)}`);

export const pageReportQueryOptions = (scanId: string) =>
  queryOptions({
    queryKey: ['audit-page-report', scanId],
    queryFn: () => getPageReport(scanId),
    staleTime: Infinity,
  });

export function usePageReport(scanId: string, enabled: boolean) {
  return useQuery({ ...pageReportQueryOptions(scanId), enabled });
}
