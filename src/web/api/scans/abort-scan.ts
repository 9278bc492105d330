import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { MessageResponse } from '#contract/scan-api.js';
import { api } from '../../lib/api-client';
import { scanKeys } from './keys';

/** Spec §7: POST /api/real-live-scan/abort, naming the scan to stop. */
export const abortScan = (scanId: string) =>
  api.post<z.infer<typeof MessageResponse>>('/api/real-live-scan/abort', { scanId });

/** Reads the progress again at once, so the aborted stage shows without waiting for a poll. */
export function useAbortScan() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: abortScan,
    onSettled: (_answer, _error, scanId) =>
      queryClient.invalidateQueries({ queryKey: scanKeys.progress(scanId) }),
  });
}
