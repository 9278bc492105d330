import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import type { MessageResponse } from '#contract/scan-api.js';
import { api } from '../../lib/api-client';

/** Spec §7: POST /api/real-live-scan/reset stops whatever the visitor still has running. */
export const resetScans = () =>
  api.post<z.infer<typeof MessageResponse>>('/api/real-live-scan/reset');

export function useResetScans() {
  return useMutation({ mutationFn: resetScans });
}
