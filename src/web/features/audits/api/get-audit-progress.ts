import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AuditProgress } from '#contract/audit.js';
import { api } from '../../../lib/api-client';

/** The caller's latest audit, page by page (answers 404 before the first audit is stored). */
export const getAuditProgress = () => api.get<AuditProgress>('/api/audit-progress');

export const auditProgressKey = ['audit-progress'] as const;

/** Read every second while an audit call waits, like the raw scan's progress (spec §9). */
export const auditProgressQueryOptions = () =>
  queryOptions({
    queryKey: auditProgressKey,
    queryFn: getAuditProgress,
    refetchInterval: 1000,
    refetchIntervalInBackground: true,
  });

export function useAuditProgress(enabled: boolean) {
  return useQuery({ ...auditProgressQueryOptions(), enabled });
}
