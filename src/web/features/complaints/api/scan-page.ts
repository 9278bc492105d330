import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { StartScanResponse } from '#contract/scan-api.js';
import { api } from '../../../lib/api-client';
import { complaintsKey } from './list-complaints';

/** 'Scan this page now' for the page a complaint names (spec §7 `POST /api/scans`). */
export const scanPage = (url: string) =>
  api.post<z.infer<typeof StartScanResponse>>('/api/scans', { url });

export function useScanPage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: scanPage,
    // The details then show the scan under way.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: complaintsKey }),
  });
}
