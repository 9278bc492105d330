import { useMutation } from '@tanstack/react-query';
import type { AuditResponse } from '#contract/audit.js';
import { api } from '../../../lib/api-client';

/** The two audit calls: the same audit behind the spec's two screens (spec §7). */
const auditEndpoints = {
  'multi-page': '/api/multi-page-audit',
  'smart-scan': '/api/smart-scan',
} as const;

/** Which screen's call: the multi-page audit or the smart scan. */
export type AuditKind = keyof typeof auditEndpoints;

export interface AuditCall {
  urls: string[];
  /** Going back drops the wait (the audit itself goes on and stays stored). */
  signal?: AbortSignal;
}

/** Scans up to 10 pages and answers when all are done (spec §7). */
export const runAudit = (kind: AuditKind, { urls, signal }: AuditCall) =>
  api.post<AuditResponse>(auditEndpoints[kind], { urls }, signal ? { signal } : {});

export function useAudit(kind: AuditKind) {
  return useMutation({ mutationFn: (call: AuditCall) => runAudit(kind, call) });
}
