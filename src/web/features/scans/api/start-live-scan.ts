import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import type { StartLiveScanRequest, StartLiveScanResponse } from '../../../../contract/scan-api';
import { api } from '../../../lib/api-client';

/** Spec §7: the raw and live scan screens start with includeRaw: true and read scanId. */
export const startLiveScan = (input: StartLiveScanRequest) =>
  api.post<z.infer<typeof StartLiveScanResponse>>('/api/real-live-scan/start', input);

export function useStartLiveScan() {
  return useMutation({ mutationFn: startLiveScan });
}
