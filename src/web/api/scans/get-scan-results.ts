import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ScanResults } from '#contract/scan-api.js';
import { api } from '../../lib/api-client';
import { scanKeys } from './keys';

export const getScanResults = (scanId: string) =>
  api.get<ScanResults>(`/api/real-live-scan/results?scanId=${encodeURIComponent(scanId)}`);

export const scanResultsQueryOptions = (scanId: string) =>
  queryOptions({ queryKey: scanKeys.results(scanId), queryFn: () => getScanResults(scanId) });

/** Spec §4: fetched once the scan's stage is complete. */
export function useScanResults(scanId: string | undefined, complete: boolean) {
  return useQuery({ ...scanResultsQueryOptions(scanId ?? ''), enabled: !!scanId && complete });
}
