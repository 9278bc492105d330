import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ScanResults } from '../../../../contract/scan-api';
import { api } from '../../../lib/api-client';

export const getScanResults = (scanId: string) =>
  api.get<ScanResults>(`/api/real-live-scan/results?scanId=${encodeURIComponent(scanId)}`);

export const scanResultsQueryOptions = (scanId: string) =>
  queryOptions({ queryKey: ['scan-results', scanId], queryFn: () => getScanResults(scanId) });

/** Fetched once the scan's stage is complete (spec §4, raw scan). */
export function useScanResults(scanId: string | undefined, complete: boolean) {
  return useQuery({ ...scanResultsQueryOptions(scanId ?? ''), enabled: !!scanId && complete });
}
