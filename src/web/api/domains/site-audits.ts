import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  MonitoringSettings,
  ScanNowResponse,
  SiteAuditDetails,
  SiteAuditList,
  UpdateMonitoringRequest,
} from '#contract/site-monitoring.js';
import { api, request } from '../../lib/api-client';

/** A monitored domain's site audits: their list and settings, one audit, "Scan now". */

const base = (domain: string) => `/api/domains/${encodeURIComponent(domain)}`;

export const siteAuditKeys = {
  all: (domain: string) => ['site-audits', domain] as const,
  list: (domain: string) => ['site-audits', domain, 'list'] as const,
  audit: (domain: string, auditId: string) => ['site-audits', domain, 'audit', auditId] as const,
};

const running = (status: string | undefined) => status === 'pending' || status === 'running';

/** Polled every 5 s while the latest audit runs, so its progress moves on screen. */
export const siteMonitoringQueryOptions = (domain: string) =>
  queryOptions({
    queryKey: siteAuditKeys.list(domain),
    queryFn: () => api.get<SiteAuditList>(`${base(domain)}/monitoring`),
    refetchInterval: (query) => (running(query.state.data?.audits[0]?.status) ? 5_000 : false),
  });

export function useSiteMonitoring(domain: string) {
  return useQuery(siteMonitoringQueryOptions(domain));
}

export function useSiteAudit(domain: string, auditId: string | undefined, status?: string) {
  return useQuery({
    queryKey: siteAuditKeys.audit(domain, auditId ?? ''),
    queryFn: () => api.get<SiteAuditDetails>(`${base(domain)}/audits/${auditId}`),
    enabled: auditId !== undefined,
    refetchInterval: running(status) ? 5_000 : false,
  });
}

export function useScanNow(domain: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<ScanNowResponse>(`${base(domain)}/audits`, {}),
    onSettled: () => queryClient.invalidateQueries({ queryKey: siteAuditKeys.all(domain) }),
  });
}

export function useUpdateMonitoring(domain: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: UpdateMonitoringRequest) =>
      request<MonitoringSettings>('PATCH', `${base(domain)}/monitoring`, { body: input }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: siteAuditKeys.all(domain) }),
  });
}
