import { useMutation } from '@tanstack/react-query';
import type { AuditResponse } from '../../../../contract/audit';
import { api } from '../../../lib/api-client';

/** The two audit calls: the same audit behind the spec's two screens (spec §7). */
export type AuditEndpoint = '/api/multi-page-audit' | '/api/smart-scan';

export interface AuditCall {
  urls: string[];
  /** Going back drops the wait (the audit itself goes on and stays stored). */
  signal?: AbortSignal;
}

/** Scans up to 10 pages and answers when all are done (spec §7). */
export const runAudit = (endpoint: AuditEndpoint, { urls, signal }: AuditCall) =>
  api.post<AuditResponse>(endpoint, { urls }, signal ? { signal } : {});

export function useAudit(endpoint: AuditEndpoint) {
  return useMutation({ mutationFn: (call: AuditCall) => runAudit(endpoint, call) });
}
