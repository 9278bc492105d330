import { queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { ScanListResponse } from '#contract/scan-api.js';
import { api } from '../../../lib/api-client';

type ScanList = z.infer<typeof ScanListResponse>;

export const listScans = () => api.get<ScanList>('/api/scans');

/** How often the list is read again while one of its scans has not ended. */
export const scanListPollMs = 2000;

/** True while a scan of the list is still queued or running: its row will change. */
export function hasUnfinishedScan(scans: ScanList | undefined): boolean {
  return !!scans?.scans.some((scan) => scan.status === 'pending' || scan.status === 'running');
}

/**
 * The account's scans; read again every two seconds while any of them is still pending or
 * running (a scan started from the landing modal, a multi-page audit's pages), so rows move on
 * to their score without a reload, and not at all once every scan has ended.
 */
export const scanListQueryOptions = () =>
  queryOptions({
    queryKey: ['scans'],
    queryFn: listScans,
    refetchInterval: (query) => (hasUnfinishedScan(query.state.data) ? scanListPollMs : false),
  });

export function useScanList() {
  return useQuery(scanListQueryOptions());
}
