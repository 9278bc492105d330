import type { RawScanResult } from '#contract/raw-result.js';
import { api } from '../../../lib/api-client';

/** Scans one page now and answers each engine's raw output (spec §7 POST /api/raw-scan). */
export const scanRawPage = (url: string, signal?: AbortSignal) =>
  api.post<RawScanResult>('/api/raw-scan', { url }, signal ? { signal } : {});
