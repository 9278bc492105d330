import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ScanResults } from '../../../../contract/scan-api';
import { api } from '../../../lib/api-client';

export const getLiveScanResults = (scanId: string) =>
  api.get<ScanResults>(`/api/real-live-scan/results?scanId=${encodeURIComponent(scanId)}`);

export const liveScanResultsQueryOptions = (scanId: string) =>
  queryOptions({
    queryKey: ['live-scan', scanId, 'results'],
    queryFn: () => getLiveScanResults(scanId),
  });

/** Spec §4: fetched once the scan's stage is complete. */
export function useLiveScanResults(scanId: string | undefined, complete: boolean) {
  return useQuery({ ...liveScanResultsQueryOptions(scanId ?? ''), enabled: !!scanId && complete });
}
