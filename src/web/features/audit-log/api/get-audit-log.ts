import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { AuditAction, AuditLogPage } from '#contract/audit-log.js';
import { api } from '../../../lib/api-client';

/** What the log is narrowed to; the same filters make the CSV. */
export interface AuditLogFilters {
  action?: AuditAction | undefined;
  /** Days, `YYYY-MM-DD`; `to` includes its whole day. */
  from?: string | undefined;
  to?: string | undefined;
}

function filterQuery(filters: AuditLogFilters): URLSearchParams {
  const query = new URLSearchParams();
  for (const key of ['action', 'from', 'to'] as const) {
    const value = filters[key];
    if (value) query.set(key, value);
  }
  return query;
}

export const getAuditLog = (filters: AuditLogFilters, page: number) => {
  const query = filterQuery(filters);
  query.set('page', String(page));
  return api.get<AuditLogPage>(`/api/organisation/audit-log?${query.toString()}`);
};

/** The address of the filtered entries as CSV: a plain download the session cookie carries. */
export function auditLogCsvHref(filters: AuditLogFilters): string {
  const query = filterQuery(filters).toString();
  return `/api/organisation/audit-log.csv${query ? `?${query}` : ''}`;
}

export const auditLogQueryOptions = (filters: AuditLogFilters, page: number) =>
  queryOptions({
    queryKey: [
      'organisation',
      'audit-log',
      filters.action ?? '',
      filters.from ?? '',
      filters.to ?? '',
      page,
    ],
    queryFn: () => getAuditLog(filters, page),
    staleTime: 10_000,
    placeholderData: keepPreviousData,
  });

export function useAuditLog(filters: AuditLogFilters, page: number) {
  return useQuery(auditLogQueryOptions(filters, page));
}
