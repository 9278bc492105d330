import { useMutation } from '@tanstack/react-query';
import type { AuditResponse } from '../../../../contract/audit';
import { api } from '../../../lib/api-client';

/** Scans up to 10 pages and answers when all are done (spec §7). */
export const runMultiPageAudit = (urls: string[]) =>
  api.post<AuditResponse>('/api/multi-page-audit', { urls });

export function useMultiPageAudit() {
  return useMutation({ mutationFn: runMultiPageAudit });
}
