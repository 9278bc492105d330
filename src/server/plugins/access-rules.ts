import type { ApiTokenScope, OrganisationRole } from '#contract/index.js';

/**
 * Who may call each route (ADR 0025). Every route the app registers is listed here, or the app
 * refuses to start (plugins/access.ts), so a new route cannot ship without a decision.
 *
 * - `public`: anyone; no account is involved (sign-in, public pages, the badge, webhooks).
 * - `person`: the signed-in person's own account (profile, password, sessions): any role, never
 *   an API token.
 * - `visitor`: open to anonymous visitors (the public scan tools); a signed-in member needs
 *   `role` in their organisation, since what they start or read is the organisation's.
 * - `organisation`: a signed-in member with at least `role`, or a token with `scope`.
 *
 * A `scope` makes a route callable with an API token holding it; without one, tokens get a 403.
 */
export type AccessRule =
  | { kind: 'public' }
  | { kind: 'person' }
  | { kind: 'visitor' | 'organisation'; role: OrganisationRole; scope?: ApiTokenScope };

const open: AccessRule = { kind: 'public' };
const person: AccessRule = { kind: 'person' };
const visitor = (role: OrganisationRole, scope?: ApiTokenScope): AccessRule =>
  scope ? { kind: 'visitor', role, scope } : { kind: 'visitor', role };
const organisation = (role: OrganisationRole, scope?: ApiTokenScope): AccessRule =>
  scope ? { kind: 'organisation', role, scope } : { kind: 'organisation', role };

/** `METHOD /path` as Fastify registers it. HEAD follows its GET. */
export const accessRules: Record<string, AccessRule> = {
  // The API description and its viewer (the web app's own files, outside /api, are public).
  'GET /api/openapi.json': open,
  'GET /api/docs': open,
  'GET /api/docs/': open,
  'GET /api/docs/*': open,
  'GET /api/docs/json': open,
  'GET /api/docs/yaml': open,
  'GET /api/docs/static/index.html': open,
  'GET /api/docs/static/swagger-initializer.js': open,
  'GET /api/docs/static/theme/conformly.css': open,
  'GET /api/csrf-token': open,
  'GET /api/session': open,
  'GET /api/payments/config': open,

  // Signing in and up.
  'POST /api/auth/register': open,
  'POST /api/auth/signup': open,
  'POST /api/auth/login': open,
  'POST /api/auth/logout': open,
  'POST /api/auth/reset-password': open,
  'POST /api/auth/reset-password-request': open,
  'POST /api/auth/reset-password-complete': open,
  'POST /api/auth/verify-reset-code': open,
  'GET /api/auth/providers': open,
  'GET /api/auth/google/initiate': open,
  'GET /api/auth/google/callback': open,

  // Public pages, the badge, complaints from visitors, signed links, Stripe's webhook.
  'GET /api/public/scan/:scanId': open,
  'GET /api/public/status/:domain': open,
  'POST /api/public/submit-complaint': open,
  'GET /api/audit/:domain': open,
  'GET /api/badge/:domain': open,
  'GET /badge/:domain': open,
  'GET /api/account/unsubscribe': open,
  'POST /api/account/unsubscribe': open,
  'GET /api/account/unsubscribe/preview': open,
  'POST /api/stripe/webhook': open,
  'POST /api/test-openacr': open,
  'POST /api/fill-vpat-template': open,

  // The person's own account.
  'GET /api/user': person,
  'GET /api/user/me': person,
  'GET /api/account/settings': person,
  'GET /api/account/sessions': person,
  'DELETE /api/account/sessions/:id': person,
  'PUT /api/account/profile': person,
  'POST /api/account/password': person,
  'POST /api/account/email': person,
  'POST /api/account/email/confirm': person,
  'GET /api/account/export': person,
  'PUT /api/account/notifications': person,
  'POST /api/account/tour': person,
  'POST /api/account/delete': person,

  // Scans: anyone may scan; in an organisation, members start them and everyone reads them.
  'POST /api/scans': visitor('member', 'scans:write'),
  'GET /api/scans': visitor('viewer', 'scans:read'),
  'GET /api/scans/:id/events': visitor('viewer', 'scans:read'),
  'POST /api/scans/:id/share-link': visitor('member'),
  'DELETE /api/scans/:id/share-link': visitor('member'),
  'PATCH /api/scans/:id/visibility': visitor('admin'),
  'POST /api/smart-scan': visitor('member', 'scans:write'),
  'POST /api/raw-scan': visitor('member', 'scans:write'),
  'POST /api/analyze': visitor('member', 'scans:write'),
  'POST /api/real-live-scan/start': visitor('member'),
  'GET /api/real-live-scan/progress': visitor('viewer', 'scans:read'),
  'GET /api/real-live-scan/results': visitor('viewer', 'scans:read'),
  'POST /api/real-live-scan/reset': visitor('member'),
  'POST /api/real-live-scan/abort': visitor('member'),
  'POST /api/discover-pages': visitor('member', 'scans:write'),
  'POST /api/multi-page-audit': visitor('member', 'scans:write'),
  'GET /api/audit-progress': visitor('viewer', 'scans:read'),
  'GET /api/report/:scanId': visitor('viewer', 'scans:read'),
  'GET /api/report/:scanId/statement.pdf': visitor('viewer', 'scans:read'),
  'GET /api/report/:scanId/export/:format': visitor('viewer', 'scans:read'),
  'GET /api/report/:scanId/raw/:engine': visitor('viewer', 'scans:read'),
  'GET /api/html-report/:scanId': visitor('viewer', 'scans:read'),
  'GET /api/artifacts/:id': visitor('viewer', 'scans:read'),
  'POST /api/generate-vpat': visitor('member'),
  'POST /api/generate-vpat-from-scan': visitor('member'),
  'GET /api/checkout/:scanId': visitor('owner'),

  // Domains, monitoring and the badge: admins change them, everyone reads them.
  'GET /api/domains': organisation('viewer', 'domains:read'),
  'GET /api/domains/list': organisation('viewer', 'domains:read'),
  'POST /api/domains': organisation('admin'),
  'DELETE /api/domains/:domain': organisation('admin'),
  'PUT /api/domains/:domain/badge': organisation('admin'),
  'POST /api/domains/:domain/reactivate': organisation('admin'),
  'GET /api/domains/:domain/monitoring': organisation('viewer', 'domains:read'),
  'PATCH /api/domains/:domain/monitoring': organisation('admin'),
  'POST /api/domains/:domain/audits': organisation('member', 'scans:write'),
  'GET /api/domains/:domain/audits/:auditId': organisation('viewer', 'domains:read'),
  'GET /api/domains/:domain/rules': organisation('viewer', 'domains:read'),
  // Triage (ADR 0033): everyone reads it; members change the issues assigned to them or to
  // nobody, admins all, and only admins assign (triage/service.ts). Never a token's change.
  'GET /api/domains/:domain/triage': organisation('viewer', 'domains:read'),
  'GET /api/domains/:domain/triage/:issueKey': organisation('viewer', 'domains:read'),
  'POST /api/domains/:domain/triage': organisation('member'),
  // Sending issues to a tracker: members create GitHub issues, anyone exports the Jira CSV.
  'POST /api/domains/:domain/tracker/github': organisation('member'),
  'GET /api/domains/:domain/exports/jira.csv': organisation('viewer', 'domains:read'),
  'GET /api/domains/:domain/verification': organisation('viewer', 'domains:read'),
  'POST /api/domains/:domain/verify': organisation('admin'),
  'GET /api/badges': organisation('viewer', 'domains:read'),
  'GET /api/dashboard': organisation('viewer', 'domains:read'),
  'GET /api/dashboard/analytics': organisation('viewer', 'domains:read'),
  'GET /api/dashboard/reports': organisation('viewer', 'scans:read'),
  'GET /api/dashboard/domains/:domain': organisation('viewer', 'domains:read'),
  // A CI job's results (`conformly --upload`) into the domain's history, beside its audits.
  'POST /api/ci-runs': organisation('member', 'results:upload'),

  // Complaints: members act on the ones assigned to them (complaints/service.ts), admins on all.
  'GET /api/complaints': organisation('viewer', 'complaints:read'),
  'GET /api/complaints/:id': organisation('viewer', 'complaints:read'),
  'PATCH /api/complaints/:id/status': organisation('member'),
  'PATCH /api/complaints/:id/notes': organisation('member'),
  'PATCH /api/complaints/:id/assignee': organisation('admin'),
  'POST /api/complaints/:id/reply': organisation('member'),

  // Billing and add-ons: owners pay; everyone sees the plan and what was bought.
  'GET /api/core-plan-status': organisation('viewer'),
  'GET /api/subscription-status': organisation('viewer'),
  // Settings → Billing: invoices, who is billed and the card on file (owners and admins).
  'GET /api/billing/invoices': organisation('admin'),
  'GET /api/billing/invoices/:id/pdf': organisation('admin'),
  'GET /api/billing/details': organisation('admin'),
  'PUT /api/billing/details': organisation('admin'),
  'GET /api/billing/card': organisation('admin'),
  'POST /api/billing/card': organisation('admin'),
  'POST /api/billing/card/confirm': organisation('admin'),
  'POST /api/create-payment-intent': organisation('owner'),
  'POST /api/create-subscription': organisation('owner'),
  'POST /api/subscribe': organisation('owner'),
  'POST /api/subscription/cancel': organisation('owner'),
  // Monthly or yearly billing: everyone sees the figures, the owners switch and pay.
  'GET /api/billing/interval': organisation('viewer'),
  'POST /api/billing/interval': organisation('owner'),
  'GET /api/add-ons': organisation('viewer'),
  'GET /api/add-ons/catalogue': open,
  'GET /api/add-ons/pages': organisation('viewer'),
  'POST /api/add-ons/purchase': organisation('owner'),
  'GET /api/add-ons/:id/download': organisation('viewer'),
  // The terms' 30-day refund of a rejected report: who sees the invoices asks (ADR 0042).
  'POST /api/add-ons/:id/refund': organisation('admin'),

  // The organisation's people: everyone sees the team, owners manage it, anyone may leave
  // (organisations/service.ts); an invitation link is read by whoever holds it and accepted by
  // the signed-in person it was sent to. Never a token's.
  'GET /api/organisations': person,
  'POST /api/organisations/active': person,
  'GET /api/organisation/members': organisation('viewer'),
  'PATCH /api/organisation/members/:userId': organisation('owner'),
  'DELETE /api/organisation/members/:userId': organisation('viewer'),
  'POST /api/organisation/invitations': organisation('owner'),
  'DELETE /api/organisation/invitations/:id': organisation('owner'),
  'GET /api/invitations/:token': open,
  'POST /api/invitations/:token/accept': person,

  // The audit log: the evidence owners and admins are asked for; never a token's.
  'GET /api/organisation/audit-log': organisation('admin'),
  'GET /api/organisation/audit-log.csv': organisation('admin'),

  // API tokens: owners and admins create, list and revoke them; a token never manages tokens.
  'GET /api/organisation/tokens': organisation('admin'),
  'POST /api/organisation/tokens': organisation('admin'),
  'DELETE /api/organisation/tokens/:id': organisation('admin'),

  // Integrations (GitHub, webhook): secrets the owners and admins enter; never a token's.
  'GET /api/organisation/integrations': organisation('admin'),
  'PUT /api/organisation/integrations': organisation('admin'),
  'POST /api/organisation/integrations/webhook-test': organisation('admin'),
};
