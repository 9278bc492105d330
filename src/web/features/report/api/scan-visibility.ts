import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ReportResponse, ScanVisibilityResponse } from '#contract/scan-api.js';
import { request } from '../../../lib/api-client';
import { reportQueryOptions } from './get-report';

/** `PATCH /api/scans/{id}/visibility`: only the account that ran the scan may (404 otherwise). */
export const setScanVisibility = (scanId: string, isPublic: boolean) =>
  request<ScanVisibilityResponse>('PATCH', `/api/scans/${encodeURIComponent(scanId)}/visibility`, {
    body: { isPublic },
  });

export function useSetScanVisibility(scanId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (isPublic: boolean) => setScanVisibility(scanId, isPublic),
    onSuccess: (answer) => {
      queryClient.setQueryData<ReportResponse>(
        reportQueryOptions(scanId).queryKey,
        (report) =>
          report && { ...report, sharing: { ...report.sharing, isPublic: answer.isPublic } },
      );
      // The public audit page read earlier in this tab is now out of date.
      queryClient.removeQueries({ queryKey: ['public-scan', scanId] });
    },
  });
}
