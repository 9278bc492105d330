import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ScanProgress } from '#contract/scan-api.js';
import { ApiError, api } from '../../lib/api-client';
import { isFinalStage } from '../../lib/scan-stages';
import { scanKeys } from './keys';

/** Spec §9: progress is polled every 1000 ms. */
export const progressPollMs = 1000;

/** The scan's progress, or null when the server has no such scan (spec §4: 404 = none running). */
export async function getScanProgress(scanId: string): Promise<ScanProgress | null> {
  try {
    return await api.get<ScanProgress>(
      `/api/real-live-scan/progress?scanId=${encodeURIComponent(scanId)}`,
    );
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}

/** Polls until the scan completes, fails or is aborted, the call fails, or there is no scan. */
export const scanProgressQueryOptions = (scanId: string) =>
  queryOptions({
    queryKey: scanKeys.progress(scanId),
    queryFn: () => getScanProgress(scanId),
    refetchInterval: (query) => {
      const { status, data } = query.state;
      return status === 'error' || !data || isFinalStage(data.stage) ? false : progressPollMs;
    },
    refetchIntervalInBackground: true,
  });

export function useScanProgress(scanId: string | undefined) {
  return useQuery({ ...scanProgressQueryOptions(scanId ?? ''), enabled: !!scanId });
}
