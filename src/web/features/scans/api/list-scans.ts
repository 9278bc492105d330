import { queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { ScanListResponse } from '#contract/scan-api.js';
import { ApiError, api } from '../../../lib/api-client';

export const listScans = () => api.get<z.infer<typeof ScanListResponse>>('/api/scans');

/** Spec §7: `GET /api/scans` is stale after 30 s, read again every 60 s. */
export const scanListStaleMs = 30_000;
export const scanListRefetchMs = 60_000;

/** Spec §6/§7: up to 3 retries, none on a 402 (the plan is missing; asking again will not help). */
export function retryScanList(failureCount: number, error: unknown): boolean {
  if (error instanceof ApiError && error.status === 402) return false;
  return failureCount < 3;
}

export const scanListQueryOptions = () =>
  queryOptions({
    queryKey: ['scans'],
    queryFn: listScans,
    staleTime: scanListStaleMs,
    refetchInterval: scanListRefetchMs,
    retry: retryScanList,
  });

export function useScanList() {
  return useQuery(scanListQueryOptions());
}
