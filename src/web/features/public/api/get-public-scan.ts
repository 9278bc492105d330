import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PublicScanResponse } from '#contract/public.js';
import { api } from '../../../lib/api-client';

export const getPublicScan = (scanId: string) =>
  api.get<PublicScanResponse>(`/api/public/scan/${encodeURIComponent(scanId)}`);

export const publicScanQueryOptions = (scanId: string) =>
  queryOptions({ queryKey: ['public-scan', scanId], queryFn: () => getPublicScan(scanId) });

export function usePublicScan(scanId: string) {
  return useQuery(publicScanQueryOptions(scanId));
}
