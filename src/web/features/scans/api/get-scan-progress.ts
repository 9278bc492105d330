import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ScanProgress } from '../../../../contract/scan-api';
import { api } from '../../../lib/api-client';
import { isFinalStage } from '../../../lib/scan-stages';

export const getScanProgress = (scanId: string) =>
  api.get<ScanProgress>(`/api/real-live-scan/progress?scanId=${encodeURIComponent(scanId)}`);

/** Spec §9: polled every 1000 ms until the scan completes, fails or is aborted. */
export const scanProgressQueryOptions = (scanId: string) =>
  queryOptions({
    queryKey: ['scan-progress', scanId],
    queryFn: () => getScanProgress(scanId),
    refetchInterval: (query) =>
      query.state.status === 'error' || isFinalStage(query.state.data?.stage) ? false : 1000,
    refetchIntervalInBackground: true,
  });

export function useScanProgress(scanId: string | undefined) {
  return useQuery({ ...scanProgressQueryOptions(scanId ?? ''), enabled: !!scanId });
}
