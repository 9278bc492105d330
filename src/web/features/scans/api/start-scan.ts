import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { StartScanRequest, StartScanResponse } from '#contract/scan-api.js';
import { api } from '../../../lib/api-client';
import { scanListQueryOptions } from './list-scans';

export const startScan = (input: StartScanRequest) =>
  api.post<z.infer<typeof StartScanResponse>>('/api/scans', input);

/** Spec §7: reads the id; the scan list is refreshed. */
export function useStartScan() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: startScan,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: scanListQueryOptions().queryKey }),
  });
}
