import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestBrowser } from '../../../test/support/auth.js';
import { openTestPglite } from '../../../test/support/db.js';
import { registeredRoutes } from '../../../test/support/routes.js';
import { testConfig } from '../../../test/support/service.js';
import type { Database } from '#db/client.js';
import { createQueue, type PgBoss } from '#jobs/boss.js';
import { buildApp } from '../app.js';
import { accessRules, type AccessRule } from './access-rules.js';

let database: Database;
let boss: PgBoss;
let app: FastifyInstance;
let webRoot: string;

beforeAll(async () => {
  // The built web app beside the API, so its files and its page fallback are there too.
  webRoot = await mkdtemp(join(tmpdir(), 'conformly-web-'));
  await writeFile(join(webRoot, 'index.html'), '<!doctype html><title>Conformly</title>');
  await writeFile(join(webRoot, 'app.js'), 'console.log(1)');
  database = await openTestPglite();
  boss = await createQueue(database);
  app = await buildApp(testConfig, { database, boss, webRoot });
  await app.ready();
});
afterAll(async () => {
  await app?.close();
  await boss?.stop({ graceful: false, wait: true });
  await database?.close();
  await rm(webRoot, { recursive: true, force: true });
});

interface Operation {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  security?: Record<string, string[]>[];
  parameters?: { in: string; name: string; required?: boolean }[];
  responses: Record<string, { description: string; content?: Record<string, unknown> }>;
}
interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string };
  tags: { name: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: {
    schemas: Record<string, unknown>;
    securitySchemes: Record<string, { type: string; in?: string; name?: string; scheme?: string }>;
  };
}

async function openApiDocument(): Promise<OpenApiDocument> {
  const response = await app.inject({ method: 'GET', url: '/api/openapi.json' });
  expect(response.statusCode).toBe(200);
  expect(response.headers['content-type']).toMatch(/^application\/json/);
  return response.json();
}

function operations(document: OpenApiDocument) {
  return Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({ path, method, operation })),
  );
}

/**
 * Registered but deliberately not in the description, each hidden with `hide: true` by the
 * plugin that adds it: Swagger UI's own page, its assets and its copy of the document, and the
 * built web app's files.
 */
const undocumented = (path: string) =>
  path === '/api/docs' ||
  path.startsWith('/api/docs/') ||
  ['/', '/index.html', '/app.js'].includes(path);

/** `/api/scans/:id/events` as OpenAPI writes it: `/api/scans/{id}/events`. */
const openApiPath = (path: string) => path.replace(/:(\w+)/g, '{$1}');

/** A value each path parameter accepts, so a call gets past validation to what it checks next. */
function concretePath(path: string): string {
  return path.replace(/\{(\w+)\}/g, (_match, name: string) => {
    if (name === 'domain') return 'example.com';
    if (name === 'format') return 'csv';
    if (name === 'engine') return 'axe';
    return randomUUID();
  });
}

/** A value for each required query parameter. */
function requiredQuery(operation: Operation): string {
  const required = (operation.parameters ?? []).filter((p) => p.in === 'query' && p.required);
  return required.length ? `?${required.map((p) => `${p.name}=example.com`).join('&')}` : '';
}

/**
 * Every call's operationId: the name a client generated from the document gives its method
 * (`client.listDomains()`), so a rename breaks those clients. Set where each route is declared
 * (`schema.operationId`); a new route adds its line here.
 */
const operationIds: Record<string, string> = {
  'DELETE /api/account/sessions/{id}': 'endSession',
  'DELETE /api/domains/{domain}': 'archiveDomain',
  'DELETE /api/organisation/invitations/{id}': 'revokeInvitation',
  'DELETE /api/organisation/members/{userId}': 'removeMember',
  'DELETE /api/organisation/tokens/{id}': 'revokeApiToken',
  'DELETE /api/scans/{id}/share-link': 'revokeShareLink',
  'GET /api/account/export': 'exportAccountData',
  'GET /api/account/sessions': 'listSessions',
  'GET /api/account/settings': 'getAccountSettings',
  'GET /api/account/unsubscribe': 'openUnsubscribeLink',
  'GET /api/account/unsubscribe/preview': 'previewUnsubscribe',
  'GET /api/add-ons': 'listAddOns',
  'GET /api/add-ons/catalogue': 'listAddOnCatalogue',
  'GET /api/add-ons/pages': 'listAddOnPages',
  'GET /api/add-ons/{id}/download': 'downloadAddOn',
  'GET /api/artifacts/{id}': 'getArtifact',
  'GET /api/audit-progress': 'getAuditProgress',
  'GET /api/audit/{domain}': 'getPublicAudit',
  'GET /api/auth/google/callback': 'finishGoogleSignIn',
  'GET /api/auth/google/initiate': 'startGoogleSignIn',
  'GET /api/auth/providers': 'listSignInProviders',
  'GET /api/badge/{domain}': 'getBadge',
  'GET /api/badges': 'listBadges',
  'GET /api/billing/card': 'getCardOnFile',
  'GET /api/billing/details': 'getBuyerDetails',
  'GET /api/billing/interval': 'previewBillingInterval',
  'GET /api/billing/invoices': 'listInvoices',
  'GET /api/billing/invoices/{id}/pdf': 'getInvoicePdf',
  'GET /api/checkout/{scanId}': 'getCheckout',
  'GET /api/complaints': 'listComplaints',
  'GET /api/complaints/{id}': 'getComplaint',
  'GET /api/core-plan-status': 'getCorePlanStatus',
  'GET /api/csrf-token': 'getCsrfToken',
  'GET /api/dashboard': 'getDashboard',
  'GET /api/dashboard/analytics': 'getDashboardAnalytics',
  'GET /api/dashboard/domains/{domain}': 'getDomainHistory',
  'GET /api/dashboard/reports': 'listReports',
  'GET /api/domains': 'listDomains',
  'GET /api/domains/list': 'listDomainNames',
  'GET /api/domains/{domain}/audits/{auditId}': 'getSiteAudit',
  'GET /api/domains/{domain}/exports/jira.csv': 'exportJiraCsv',
  'GET /api/domains/{domain}/monitoring': 'getDomainMonitoring',
  'GET /api/domains/{domain}/rules': 'getDomainRulePages',
  'GET /api/domains/{domain}/triage': 'listDomainTriage',
  'GET /api/domains/{domain}/triage/{issueKey}': 'getIssueTriageHistory',
  'GET /api/domains/{domain}/verification': 'getDomainVerification',
  'GET /api/html-report/{scanId}': 'getHtmlReport',
  'GET /api/invitations/{token}': 'previewInvitation',
  'GET /api/openapi.json': 'getOpenApiDocument',
  'GET /api/organisation/audit-log': 'listAuditLog',
  'GET /api/organisation/audit-log.csv': 'exportAuditLog',
  'GET /api/organisation/integrations': 'getIntegrations',
  'GET /api/organisation/members': 'listMembers',
  'GET /api/organisation/tokens': 'listApiTokens',
  'GET /api/organisations': 'listOrganisations',
  'GET /api/payments/config': 'getPaymentsConfig',
  'GET /api/public/scan/{scanId}': 'getPublicScan',
  'GET /api/public/status/{domain}': 'getPublicStatus',
  'GET /api/real-live-scan/progress': 'getLiveScanProgress',
  'GET /api/real-live-scan/results': 'getLiveScanResults',
  'GET /api/report/{scanId}': 'getScanReport',
  'GET /api/report/{scanId}/export/{format}': 'exportScanIssues',
  'GET /api/report/{scanId}/raw/{engine}': 'getRawEngineOutput',
  'GET /api/report/{scanId}/statement.pdf': 'getStatementPdf',
  'GET /api/scans': 'listScans',
  'GET /api/scans/{id}/events': 'streamScanEvents',
  'GET /api/session': 'getSession',
  'GET /api/subscription-status': 'getSubscriptionStatus',
  'GET /api/user': 'getUser',
  'GET /api/user/me': 'getCurrentUser',
  'GET /badge/{domain}': 'getEmbeddedBadge',
  'PATCH /api/complaints/{id}/assignee': 'assignComplaint',
  'PATCH /api/complaints/{id}/notes': 'saveComplaintNotes',
  'PATCH /api/complaints/{id}/status': 'setComplaintStatus',
  'PATCH /api/domains/{domain}/monitoring': 'updateDomainMonitoring',
  'PATCH /api/organisation/members/{userId}': 'changeMemberRole',
  'PATCH /api/scans/{id}/visibility': 'setScanVisibility',
  'POST /api/account/delete': 'deleteAccount',
  'POST /api/account/email': 'requestEmailChange',
  'POST /api/account/email/confirm': 'confirmEmailChange',
  'POST /api/account/password': 'changePassword',
  'POST /api/account/tour': 'markTourSeen',
  'POST /api/account/unsubscribe': 'unsubscribe',
  'POST /api/add-ons/purchase': 'purchaseAddOn',
  'POST /api/add-ons/{id}/refund': 'refundAddOn',
  'POST /api/analyze': 'analyzePage',
  'POST /api/auth/login': 'logIn',
  'POST /api/auth/logout': 'logOut',
  'POST /api/auth/register': 'register',
  'POST /api/auth/reset-password': 'resetPasswordWithLink',
  'POST /api/auth/reset-password-complete': 'completePasswordReset',
  'POST /api/auth/reset-password-request': 'requestPasswordReset',
  'POST /api/auth/signup': 'signUpFromScan',
  'POST /api/auth/verify-reset-code': 'verifyResetCode',
  'POST /api/billing/card': 'replaceCard',
  'POST /api/billing/card/confirm': 'confirmCard',
  'POST /api/billing/interval': 'changeBillingInterval',
  'POST /api/ci-runs': 'uploadCiRun',
  'POST /api/complaints/{id}/reply': 'replyToComplaint',
  'POST /api/create-payment-intent': 'createPaymentIntent',
  'POST /api/create-subscription': 'createSubscription',
  'POST /api/discover-pages': 'discoverPages',
  'POST /api/domains': 'addDomain',
  'POST /api/domains/{domain}/audits': 'startSiteAudit',
  'POST /api/domains/{domain}/reactivate': 'reactivateDomain',
  'POST /api/domains/{domain}/tracker/github': 'createGithubIssues',
  'POST /api/domains/{domain}/triage': 'changeIssueTriage',
  'POST /api/domains/{domain}/verify': 'verifyDomain',
  'POST /api/fill-vpat-template': 'fillVpatTemplate',
  'POST /api/generate-vpat': 'generateVpatFromOpenAcr',
  'POST /api/generate-vpat-from-scan': 'generateVpatFromScan',
  'POST /api/invitations/{token}/accept': 'acceptInvitation',
  'POST /api/multi-page-audit': 'runMultiPageAudit',
  'POST /api/organisation/integrations/webhook-test': 'testWebhook',
  'POST /api/organisation/invitations': 'inviteMember',
  'POST /api/organisation/tokens': 'createApiToken',
  'POST /api/organisations/active': 'chooseOrganisation',
  'POST /api/public/submit-complaint': 'submitComplaint',
  'POST /api/raw-scan': 'scanPageRaw',
  'POST /api/real-live-scan/abort': 'abortLiveScan',
  'POST /api/real-live-scan/reset': 'abortRunningScans',
  'POST /api/real-live-scan/start': 'startLiveScan',
  'POST /api/scans': 'startScan',
  'POST /api/scans/{id}/share-link': 'createShareLink',
  'POST /api/smart-scan': 'runSmartScan',
  'POST /api/stripe/webhook': 'receiveStripeEvent',
  'POST /api/subscribe': 'subscribeDomain',
  'POST /api/subscription/cancel': 'cancelSubscription',
  'POST /api/test-openacr': 'checkOpenAcr',
  'PUT /api/account/notifications': 'updateEmailPreferences',
  'PUT /api/account/profile': 'updateProfile',
  'PUT /api/billing/details': 'saveBuyerDetails',
  'PUT /api/domains/{domain}/badge': 'saveBadgeSettings',
  'PUT /api/organisation/integrations': 'updateIntegrations',
};

describe('the OpenAPI document at /api/openapi.json', () => {
  it('is an OpenAPI 3.1 document with paths, named schemas and the security schemes', async () => {
    const document = await openApiDocument();
    expect(document.openapi).toMatch(/^3\.1\.\d+$/);
    expect(document.info).toMatchObject({ title: 'Conformly API' });
    expect(Object.keys(document.paths).length).toBeGreaterThan(50);
    expect(document.components.schemas.ErrorResponse).toMatchObject({
      type: 'object',
      required: ['message'],
    });
    expect(document.components.securitySchemes).toMatchObject({
      sessionCookie: { type: 'apiKey', in: 'cookie', name: 'conformly_session' },
      csrfToken: { type: 'apiKey', in: 'header', name: 'X-CSRF-Token' },
    });
    // Every reference leads to a schema the document holds.
    const refs = JSON.stringify(document).match(/"\$ref":"[^"]+"/g) ?? [];
    expect(refs.length).toBeGreaterThan(50);
    for (const ref of new Set(refs)) {
      const name = /#\/components\/schemas\/([^"]+)/.exec(ref)?.[1];
      expect(name && document.components.schemas[name], ref).toBeTruthy();
    }
  });

  it('describes every route the app registers, with each of its methods', async () => {
    const document = await openApiDocument();
    const routes = registeredRoutes(app);
    const hidden = routes.filter((route) => undocumented(route.path)).map((route) => route.path);
    // The exclusions name real routes (the reference and the web app are registered).
    expect(hidden).toEqual(expect.arrayContaining(['/api/docs', '/app.js']));
    const missing: string[] = [];
    let described = 0;
    for (const route of routes.filter((route) => !undocumented(route.path))) {
      for (const method of route.methods.filter((method) => method !== 'HEAD')) {
        described += 1;
        if (!document.paths[openApiPath(route.path)]?.[method.toLowerCase()]) {
          missing.push(`${method} ${route.path}`);
        }
      }
    }
    expect(missing).toEqual([]);
    expect(described).toBeGreaterThan(70);
    // And nothing is described that the app does not answer.
    expect(operations(document).length).toBe(described);
  });

  it('names every call with a unique camelCase operationId that stays the same', async () => {
    const document = await openApiDocument();
    const named: Record<string, string | undefined> = {};
    for (const { path, method, operation } of operations(document)) {
      const where = `${method.toUpperCase()} ${path}`;
      named[where] = operation.operationId;
      expect(operation.operationId ?? '', where).toMatch(/^[a-z]+(?:[A-Z0-9][a-z0-9]*)*$/);
    }
    const ids = Object.values(named);
    expect(ids.filter((id, index) => ids.indexOf(id) !== index)).toEqual([]);
    expect(named).toEqual(operationIds);
  });

  it('gives every call a summary, one area, a success answer and the error body for 4xx', async () => {
    const document = await openApiDocument();
    const areas = document.tags.map((tag) => tag.name);
    for (const { path, method, operation } of operations(document)) {
      const where = `${method.toUpperCase()} ${path}`;
      expect(operation.summary, where).toBeTruthy();
      expect(operation.tags, where).toHaveLength(1);
      expect(areas, where).toContain(operation.tags![0]);
      const statuses = Object.keys(operation.responses);
      expect(
        statuses.some((status) => /^[23]/.test(status)),
        where,
      ).toBe(true);
      expect(operation.responses['4XX']?.content, where).toEqual({
        'application/json': { schema: { $ref: '#/components/schemas/ErrorResponse' } },
      });
    }
  });

  it('names the media type of every answer that is not JSON', async () => {
    const document = await openApiDocument();
    const mediaTypes = (path: string, method = 'get') =>
      Object.keys(document.paths[path]![method]!.responses['200']!.content ?? {});
    expect(mediaTypes('/api/badge/{domain}')).toEqual(['image/svg+xml']);
    expect(mediaTypes('/api/report/{scanId}/statement.pdf')).toEqual(['application/pdf']);
    expect(mediaTypes('/api/html-report/{scanId}')).toEqual(['text/html']);
    expect(mediaTypes('/api/scans/{id}/events')).toEqual(['text/event-stream']);
    expect(mediaTypes('/api/report/{scanId}/export/{format}')).toContain('text/csv');
    expect(mediaTypes('/api/generate-vpat', 'post')).toEqual([
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    ]);
    expect(mediaTypes('/api/artifacts/{id}')).toContain('application/zip');
  });

  it('asks for a session on exactly the calls that refuse an anonymous caller with 401', async () => {
    const document = await openApiDocument();
    // An anonymous visitor with its client cookie and CSRF token: only a sign-in is missing. No
    // body is sent: a sign-in is checked before the input (preValidation), so a call that needs
    // one answers 401 whatever its body.
    const visitor = new TestBrowser(app, '10.77.0.1');
    const token = await visitor.token();
    const answers: string[] = [];
    const expected: string[] = [];
    let signedInCalls = 0;
    for (const { path, method, operation } of operations(document)) {
      const security = operation.security ?? [];
      // A session, or an API token in its place (the visitor here has neither).
      const needsSession =
        security.length > 0 &&
        security.every(
          (requirement) => 'sessionCookie' in requirement || 'apiToken' in requirement,
        );
      if (needsSession) signedInCalls += 1;
      const response = await app.inject({
        method: method.toUpperCase() as 'GET',
        url: concretePath(path) + requiredQuery(operation),
        headers: { cookie: visitor.cookieHeader, 'x-csrf-token': token },
        remoteAddress: '10.77.0.1',
      });
      const where = `${method.toUpperCase()} ${path}`;
      const refused = response.statusCode === 401;
      answers.push(`${where}: ${refused ? 'refused' : 'answered'} anonymously`);
      expected.push(`${where}: ${needsSession ? 'refused' : 'answered'} anonymously`);
      if (needsSession && refused) {
        expect(response.json(), where).toEqual({ message: expect.any(String) });
        expect(Object.keys(operation.responses), where).toContain('401');
      }
    }
    expect(answers).toEqual(expected);
    expect(signedInCalls).toBeGreaterThan(40);
    expect(answers.length - signedInCalls).toBeGreaterThan(40);
  });

  it('states the credentials of every call: a session, the CSRF header with its cookie, or none', async () => {
    const document = await openApiDocument();
    const schemes = Object.keys(document.components.securitySchemes);
    expect(schemes.sort()).toEqual(['apiToken', 'clientCookie', 'csrfToken', 'sessionCookie']);
    expect(document.components.securitySchemes.apiToken).toMatchObject({
      type: 'http',
      scheme: 'bearer',
    });
    expect(document.components.securitySchemes.clientCookie).toMatchObject({
      type: 'apiKey',
      in: 'cookie',
      name: 'conformly_client',
    });
    const shapes = new Map<string, string[]>();
    for (const { path, method, operation } of operations(document)) {
      expect(operation.security, `${method} ${path}`).toBeDefined();
      const shape = JSON.stringify(operation.security);
      shapes.set(shape, [...(shapes.get(shape) ?? []), `${method.toUpperCase()} ${path}`]);
    }
    // Public reads, and the two calls that carry their own proof, need nothing.
    expect(shapes.get('[]')).toEqual(
      expect.arrayContaining([
        'GET /api/audit/{domain}',
        'GET /api/csrf-token',
        'POST /api/stripe/webhook',
        'POST /api/account/unsubscribe',
      ]),
    );
    // A public call that changes state: the CSRF token with the cookie it is bound to.
    expect(
      shapes.get(
        JSON.stringify([
          { clientCookie: [], csrfToken: [] },
          { sessionCookie: [], csrfToken: [] },
        ]),
      ),
    ).toEqual(expect.arrayContaining(['POST /api/real-live-scan/start', 'POST /api/auth/login']));
    expect(shapes.get(JSON.stringify([{ sessionCookie: [] }]))).toContain('GET /api/user');
    expect(shapes.get(JSON.stringify([{ sessionCookie: [], csrfToken: [] }]))).toContain(
      'POST /api/domains',
    );
    // What an API token may call: the same, or the token alone (no cookie, no CSRF header).
    expect(shapes.get(JSON.stringify([{ sessionCookie: [] }, { apiToken: [] }]))).toContain(
      'GET /api/domains',
    );
    expect(shapes.get(JSON.stringify([{}, { apiToken: [] }]))).toContain(
      'GET /api/report/{scanId}',
    );
    expect(
      shapes.get(
        JSON.stringify([
          { clientCookie: [], csrfToken: [] },
          { sessionCookie: [], csrfToken: [] },
          { apiToken: [] },
        ]),
      ),
    ).toContain('POST /api/scans');
    expect(
      shapes.get(JSON.stringify([{ sessionCookie: [], csrfToken: [] }, { apiToken: [] }])),
    ).toContain('POST /api/domains/{domain}/audits');
    expect(shapes.size).toBe(8);
  });

  it('asks for the CSRF header on every call that changes state, and such a call without it gets 403', async () => {
    const document = await openApiDocument();
    const changing = operations(document).filter(({ method }) => method !== 'get');
    expect(changing.length).toBeGreaterThan(30);
    for (const { path, method, operation } of changing) {
      const where = `${method.toUpperCase()} ${path}`;
      // Every way in but an API token's needs the CSRF header.
      const security = (operation.security ?? []).filter(
        (requirement) => !('apiToken' in requirement),
      );
      const needsToken =
        security.length > 0 && security.every((requirement) => 'csrfToken' in requirement);
      if (path === '/api/stripe/webhook' || path === '/api/account/unsubscribe') {
        // Stripe signs its calls instead, and a mail client's one-click unsubscribe carries a
        // signed token: no CSRF token, and none is asked for.
        expect(needsToken, where).toBeFalsy();
        continue;
      }
      expect(needsToken, where).toBe(true);
      const response = await app.inject({ method: method.toUpperCase() as 'POST', url: path });
      expect(`${where} -> ${response.statusCode}`).toBe(`${where} -> 403`);
      expect(response.json().message).toMatch(/CSRF token/);
    }
  });
});

describe('API tokens in the document', () => {
  it('are offered, with the scope named, on exactly the routes whose access rule has a scope', async () => {
    const document = await openApiDocument();
    let offered = 0;
    for (const { path, method, operation } of operations(document)) {
      const key = `${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`;
      const rule: AccessRule | undefined = accessRules[key];
      const scope = rule && 'scope' in rule ? rule.scope : undefined;
      const security = operation.security ?? [];
      const token = security.some((requirement) => 'apiToken' in requirement);
      expect(token, key).toBe(scope !== undefined);
      if (!scope) continue;
      offered += 1;
      expect(operation.description, key).toContain(`\`${scope}\` scope`);
      expect(Object.keys(operation.responses), key).toEqual(expect.arrayContaining(['401', '429']));
    }
    expect(offered).toBeGreaterThan(25);
  });
});

describe('the API reference at /api/docs', () => {
  it('answers a page whose scripts and styles all load from this server', async () => {
    const page = await app.inject({ method: 'GET', url: '/api/docs' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body).toContain('<title>Conformly API reference</title>');
    // The app's security headers apply: scripts from this origin only, and none inline.
    expect(page.headers['content-security-policy']).toMatch(/script-src 'self'/);
    expect(page.body).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/);
    const assets = [...page.body.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(assets.filter((asset) => asset.endsWith('.js')).length).toBeGreaterThanOrEqual(3);
    expect(assets.filter((asset) => asset.endsWith('.css')).length).toBeGreaterThanOrEqual(2);
    for (const asset of assets) {
      const url = new URL(asset, 'http://localhost/api/docs').pathname;
      const response = await app.inject({ method: 'GET', url });
      expect(`${url} -> ${response.statusCode}`).toBe(`${url} -> 200`);
      expect(response.body.length, url).toBeGreaterThan(0);
    }
  });

  it('reads the same description, addressed to the server it is served from', async () => {
    const document = await openApiDocument();
    const read = await app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(read.statusCode).toBe(200);
    const { servers, ...rest } = document as OpenApiDocument & { servers?: unknown };
    expect(servers).toEqual([{ url: 'http://localhost:3000' }]);
    expect(read.json()).toEqual(rest);
  });

  it('leaves the web app its pages, and the API its JSON 404', async () => {
    const page = await app.inject({ method: 'GET', url: '/app/dashboard' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<title>Conformly</title>');
    const missing = await app.inject({ method: 'GET', url: '/api/docs/static/no-such-file.js' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ message: expect.stringContaining('No such address') });
  });
});
