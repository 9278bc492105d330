import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ReportResponse } from '#contract/scan-api.js';
import { api } from '../../../lib/api-client';

/** A public scan's merged issues: the report answer, which anyone may read for a public scan. */
export const getPublicReport = (scanId: string) =>
  api.get<ReportResponse>(`/api/report/${encodeURIComponent(scanId)}`);

export const publicReportQueryOptions = (scanId: string) =>
  queryOptions({ queryKey: ['public-report', scanId], queryFn: () => getPublicReport(scanId) });

export function usePublicReport(scanId: string, enabled: boolean) {
  return useQuery({ ...publicReportQueryOptions(scanId), enabled });
}
