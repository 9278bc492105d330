import { queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { ScanListResponse } from '#contract/scan-api.js';
import { api } from '../../../lib/api-client';

export const listScans = () => api.get<z.infer<typeof ScanListResponse>>('/api/scans');

export const scanListQueryOptions = () => queryOptions({ queryKey: ['scans'], queryFn: listScans });

export function useScanList() {
  return useQuery(scanListQueryOptions());
}
