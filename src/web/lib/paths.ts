/**
 * Every address of the web app, in one place (spec §2). Components link with `getHref`, never
 * with string literals.
 */
function withQuery(path: string, query: Record<string, string | undefined>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value) params.set(key, value);
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

export const paths = {
  home: { path: '/', getHref: () => '/' },
  login: {
    path: '/app/login',
    /** `next`: a path of this site to return to after logging in (see auth/next-path.ts). */
    getHref: (email?: string, next?: string) => withQuery('/app/login', { email, next }),
  },
  signup: {
    path: '/app/signup',
    getHref: (query: { url?: string; plan?: string; next?: string; email?: string } = {}) =>
      withQuery('/app/signup', query),
  },
  resetPassword: { path: '/app/reset-password', getHref: () => '/app/reset-password' },
  resetPasswordWithToken: {
    path: '/app/reset-password/:token',
    getHref: (token: string) => `/app/reset-password/${encodeURIComponent(token)}`,
  },
  dashboard: { path: '/app/dashboard', getHref: () => '/app/dashboard' },
  /** Settings, change e-mail: the link sent to the new address. */
  confirmEmail: {
    path: '/app/confirm-email/:token',
    getHref: (token: string) => `/app/confirm-email/${encodeURIComponent(token)}`,
  },
  /** An alert e-mail's unsubscribe link (signed out). */
  unsubscribe: {
    path: '/unsubscribe',
    getHref: (token: string) => withQuery('/unsubscribe', { token }),
  },
  /** The dashboard's sections (spec dashboard-area §2), under the shell of /app/dashboard. */
  dashboardDomains: { path: 'domains', getHref: () => '/app/dashboard/domains' },
  dashboardComplaints: { path: 'complaints', getHref: () => '/app/dashboard/complaints' },
  dashboardBadge: { path: 'badge', getHref: () => '/app/dashboard/badge' },
  dashboardAnalytics: { path: 'analytics', getHref: () => '/app/dashboard/analytics' },
  dashboardReports: {
    path: 'reports',
    /** `domain`: show that site's documents only. */
    getHref: (domain?: string) => withQuery('/app/dashboard/reports', { domain }),
  },
  /** One site's history, pages and issues (beyond the spec's cards). */
  dashboardDomain: {
    path: 'domains/:domain',
    getHref: (domain: string) => `/app/dashboard/domains/${encodeURIComponent(domain)}`,
  },
  /** A domain's failing rules with every page and element, and what was tested per page. */
  dashboardDomainRules: {
    path: 'domains/:domain/rules',
    getHref: (domain: string) => `/app/dashboard/domains/${encodeURIComponent(domain)}/rules`,
  },
  /** A domain's issues with their triage: false positive, accepted, assigned, fixed, re-opened. */
  dashboardDomainTriage: {
    path: 'domains/:domain/triage',
    getHref: (domain: string) => `/app/dashboard/domains/${encodeURIComponent(domain)}/triage`,
  },
  dashboardSettings: { path: 'settings', getHref: () => '/app/dashboard/settings' },
  /** Settings → Integrations: GitHub issues and the signed webhook (owners and admins). */
  dashboardIntegrations: {
    path: 'settings/integrations',
    getHref: () => '/app/dashboard/settings/integrations',
  },
  /** Settings → Team: members, roles and invitations. */
  dashboardTeam: { path: 'settings/team', getHref: () => '/app/dashboard/settings/team' },
  /** The e-mailed invitation link: see it, then accept it signed in. */
  invitation: {
    path: '/invitations/:token',
    getHref: (token: string) => `/invitations/${encodeURIComponent(token)}`,
  },
  /** Settings → Audit log: who did what and when (owners and admins). */
  dashboardAuditLog: {
    path: 'settings/audit-log',
    getHref: () => '/app/dashboard/settings/audit-log',
  },
  /** Settings → API tokens: tokens for scripts and CI (owners and admins). */
  dashboardApiTokens: {
    path: 'settings/api-tokens',
    getHref: () => '/app/dashboard/settings/api-tokens',
  },
  /** Spec dashboard-area §2: 'Activate Compliance Shield' (card on file for the paid months). */
  appSubscribe: { path: '/app/subscribe', getHref: () => '/app/subscribe' },
  /** Spec public-area §9: the Free/Pro/Enterprise pricing page. */
  pricing: { path: '/app/pricing', getHref: () => '/app/pricing' },
  /** The badge configurator at its older address (spec §2); the same screen as dashboardBadge. */
  badgeConfig: { path: '/app/badge-config', getHref: () => '/app/badge-config' },
  subscribe: {
    path: '/subscribe/:scanId',
    getHref: (scanId: string) => `/subscribe/${encodeURIComponent(scanId)}`,
  },
  scan: {
    path: '/app/scan',
    getHref: (url?: string) => withQuery('/app/scan', { url }),
  },
  report: {
    path: '/report/:scanId',
    getHref: (scanId: string) => `/report/${encodeURIComponent(scanId)}`,
  },
  /** Finds a domain's public status page (the header's "Status pages"). */
  statusLookup: { path: '/status', getHref: () => '/status' },
  status: {
    path: '/status/:domain',
    getHref: (domain: string) => `/status/${encodeURIComponent(domain)}`,
  },
  audit: {
    path: '/audit/:domain',
    getHref: (domain: string) => `/audit/${encodeURIComponent(domain)}`,
  },
  rawReport: {
    path: '/raw-report/:scanId',
    getHref: (scanId: string) => `/raw-report/${encodeURIComponent(scanId)}`,
  },
  publicAudit: {
    path: '/public/audit/:scanId',
    getHref: (scanId: string) => `/public/audit/${encodeURIComponent(scanId)}`,
  },
  rawResults: { path: '/raw-results', getHref: () => '/raw-results' },
  liveScan: { path: '/live-scan', getHref: () => '/live-scan' },
  realScan: { path: '/real-scan', getHref: () => '/real-scan' },
  cinematicScan: { path: '/cinematic-scan', getHref: () => '/cinematic-scan' },
  premiumScan: { path: '/premium-scan', getHref: () => '/premium-scan' },
  modernScan: { path: '/modern-scan', getHref: () => '/modern-scan' },
  multiPageAudit: { path: '/multi-page-audit', getHref: () => '/multi-page-audit' },
  smartScan: { path: '/smart-scan', getHref: () => '/smart-scan' },
  smartDiscovery: { path: '/smart-discovery', getHref: () => '/smart-discovery' },
  vpat: { path: '/vpat', getHref: () => '/vpat' },
  about: { path: '/about', getHref: () => '/about' },
  privacy: { path: '/privacy', getHref: () => '/privacy' },
  terms: { path: '/terms', getHref: () => '/terms' },
} as const;
