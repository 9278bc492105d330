import { queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { ScanListResponse } from '#contract/scan-api.js';
import { ApiError, api } from '../../../lib/api-client';

type ScanList = z.infer<typeof ScanListResponse>;

export const listScans = () => api.get<ScanList>('/api/scans');

/** Spec §7: `GET /api/scans` is stale after 30 s, read again every 60 s. */
export const scanListStaleMs = 30_000;
export const scanListRefetchMs = 60_000;

/** How often the list is read again while one of its scans has not ended. */
export const scanListPollMs = 2000;

/** Spec §6/§7: up to 3 retries, none on a 402 (the plan is missing; asking again will not help). */
export function retryScanList(failureCount: number, error: unknown): boolean {
  if (error instanceof ApiError && error.status === 402) return false;
  return failureCount < 3;
}

/** True while a scan of the list is still queued or running: its row will change. */
export function hasUnfinishedScan(scans: ScanList | undefined): boolean {
  return !!scans?.scans.some((scan) => scan.status === 'pending' || scan.status === 'running');
}

/**
 * The list's refresh: every two seconds while any scan is still pending or running (a scan
 * started from the landing modal, a multi-page audit's pages), so rows move on to their score
 * without a reload; otherwise the spec's 60 s.
 */
export function scanListRefetchInterval(scans: ScanList | undefined): number {
  return hasUnfinishedScan(scans) ? scanListPollMs : scanListRefetchMs;
}

export const scanListQueryOptions = () =>
  queryOptions({
    queryKey: ['scans'],
    queryFn: listScans,
    staleTime: scanListStaleMs,
    refetchInterval: (query) => scanListRefetchInterval(query.state.data),
    retry: retryScanList,
  });

export function useScanList() {
  return useQuery(scanListQueryOptions());
}
