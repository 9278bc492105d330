import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import type { StartLiveScanResponse } from '#contract/scan-api.js';
import { api } from '../../lib/api-client';

/**
 * Spec §7: POST /api/real-live-scan/start with includeRaw: true (every screen that starts a
 * scan this way shows or keeps the engines' own output); answers the scan's id.
 */
export const startLiveScan = (url: string) =>
  api.post<z.infer<typeof StartLiveScanResponse>>('/api/real-live-scan/start', {
    url,
    includeRaw: true,
  });

export function useStartLiveScan() {
  return useMutation({ mutationFn: startLiveScan });
}
