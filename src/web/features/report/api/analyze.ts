import { useMutation } from '@tanstack/react-query';
import type { ReportResponse } from '#contract/scan-api.js';
import { api } from '../../../lib/api-client';

export interface AnalyzeInput {
  url: string;
  /** Stops waiting for the answer (the person cancelled or left the page). */
  signal?: AbortSignal;
}

/**
 * Spec §7 `POST /api/analyze`: the server scans the page, waits for the scan to be stored and
 * answers its report, so one call takes as long as the scan (10 to 60 seconds).
 */
export const analyzeUrl = ({ url, signal }: AnalyzeInput) =>
  api.post<ReportResponse>('/api/analyze', { url }, { signal });

export function useAnalyze() {
  return useMutation({ mutationFn: analyzeUrl });
}
