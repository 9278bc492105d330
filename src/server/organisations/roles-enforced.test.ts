import { eq } from 'drizzle-orm';
import { ownershipProved } from '#server/billing/lifecycle.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startAccountService,
  TestBrowser,
  type AccountService,
} from '../../../test/support/auth.js';
import { registeredRoutes } from '../../../test/support/routes.js';
import { defaultBadgeSettings } from '#contract/index.js';
import { domains, organisationMembers, users } from '#db/schema/index.js';
import { recordOwnershipCheck } from '../domains/verification-service.js';

/**
 * Roles hold on every route: a viewer of an organisation changes nothing (every write route
 * answers 403, whatever its body), and a member cannot do an admin's work while an admin can.
 */

let service: AccountService;
const password = 'Correct-Horse1!';
const domain = 'roles-walk.test';
let ownerId: string;
let nextIp = 1;

/**
 * The write routes a signed-in viewer may call: signing in and out, their own account, public
 * forms and webhooks, leaving or joining organisations. Every other write route must refuse them.
 */
const notTheOrganisations = new Set([
  'POST /api/auth/register',
  'POST /api/auth/signup',
  'POST /api/auth/login',
  'POST /api/auth/logout',
  'POST /api/auth/reset-password',
  'POST /api/auth/reset-password-request',
  'POST /api/auth/reset-password-complete',
  'POST /api/auth/verify-reset-code',
  'POST /api/public/submit-complaint',
  'POST /api/account/unsubscribe',
  'POST /api/stripe/webhook',
  'POST /api/test-openacr',
  'POST /api/fill-vpat-template',
  'DELETE /api/account/sessions/:id',
  'PUT /api/account/profile',
  'POST /api/account/password',
  'POST /api/account/email',
  'POST /api/account/email/confirm',
  'PUT /api/account/notifications',
  'POST /api/account/tour',
  'POST /api/account/delete',
  'POST /api/organisations/active',
  'POST /api/invitations/:token/accept',
]);

const writeMethods = ['POST', 'PUT', 'PATCH', 'DELETE'];

/** A path with its parameters filled: the organisation's domain, ids nobody has. */
function concrete(path: string, userId: string): string {
  return path
    .replace(':domain', domain)
    .replace(':userId', userId)
    .replace(/:(id|scanId|auditId)\b/g, '00000000-0000-4000-8000-000000000000')
    .replace(':engine', 'axe')
    .replace(':format', 'csv')
    .replace(/:\w+/g, 'x')
    .replace('*', 'x');
}

async function call(browser: TestBrowser, method: string, url: string, payload: unknown = {}) {
  return service.app.inject({
    method: method as 'POST',
    url,
    remoteAddress: '203.0.113.9',
    headers: {
      cookie: browser.cookieHeader,
      'x-csrf-token': await browser.token(),
      'content-type': 'application/json',
    },
    payload: JSON.stringify(payload),
  });
}

async function registered(email: string) {
  const browser = new TestBrowser(service.app, `203.0.113.${nextIp++}`);
  const response = await browser.post('/api/auth/register', { email, password });
  expect(response.statusCode, response.body).toBe(201);
  const [row] = await service.database.db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.email, email));
  return { browser, userId: row!.id };
}

/** Someone who works in the owner's organisation with `role` (as an accepted invitation leaves it). */
async function inOrganisation(email: string, role: 'admin' | 'member' | 'viewer') {
  const person = await registered(email);
  await service.database.db
    .insert(organisationMembers)
    .values({ organisationId: ownerId, userId: person.userId, role });
  const chosen = await person.browser.post('/api/organisations/active', {
    organisationId: ownerId,
  });
  expect(chosen.statusCode, chosen.body).toBe(200);
  return person;
}

let owner: Awaited<ReturnType<typeof registered>>;
let admin: Awaited<ReturnType<typeof registered>>;
let member: Awaited<ReturnType<typeof registered>>;
let viewer: Awaited<ReturnType<typeof registered>>;

beforeAll(async () => {
  service = await startAccountService(
    { publicUrl: 'https://conformly.example' },
    {
      complaintRateLimit: { max: 1000, timeWindowMs: 60_000 },
      scanRateLimit: { max: 1000, timeWindowMs: 60_000 },
    },
  );
  owner = await registered('owner@roles-walk.test');
  ownerId = owner.userId;
  const added = await owner.browser.post('/api/domains', {
    domain,
    newDomainIndex: 1,
    amount: 0,
    currency: 'usd',
  });
  expect(added.statusCode, added.body).toBe(200);
  const [row] = await service.database.db.select().from(domains).where(eq(domains.domain, domain));
  await recordOwnershipCheck(
    { db: service.database.db, onOwnershipProved: ownershipProved },
    row!.id,
    { verified: true, method: 'dns', error: null },
    new Date(),
  );
  admin = await inOrganisation('admin@roles-walk.test', 'admin');
  member = await inOrganisation('member@roles-walk.test', 'member');
  viewer = await inOrganisation('viewer@roles-walk.test', 'viewer');
}, 180_000);
afterAll(async () => {
  await service?.close();
});

describe('roles on every route', () => {
  it('refuses a viewer every write route of the organisation with 403', async () => {
    const writes = registeredRoutes(service.app).flatMap((route) =>
      route.methods
        .filter((method) => writeMethods.includes(method) && route.path.startsWith('/api/'))
        .map((method) => ({ method, path: route.path })),
    );
    expect(writes.length).toBeGreaterThan(40);
    const answers: string[] = [];
    for (const { method, path } of writes) {
      if (notTheOrganisations.has(`${method} ${path}`)) continue;
      const response = await call(viewer.browser, method, concrete(path, ownerId));
      answers.push(`${method} ${path} ${response.statusCode}`);
    }
    // Each listed with its answer, so a failure names the route.
    expect(answers.filter((answer) => !answer.endsWith(' 403'))).toEqual([]);
    expect(answers.length).toBeGreaterThan(30);
    // The viewer still reads what the organisation has.
    const list = await viewer.browser.get('/api/domains');
    expect(list.statusCode).toBe(200);
    expect(list.body).toContain(domain);
  });

  it('keeps the exceptions to what a person does for themselves', async () => {
    // Every exception is a route the app has: a renamed route cannot hide here.
    const all = new Set(
      registeredRoutes(service.app).flatMap((route) =>
        route.methods.map((method) => `${method} ${route.path}`),
      ),
    );
    expect([...notTheOrganisations].filter((route) => !all.has(route))).toEqual([]);
  });

  it('lets an admin, not a member, change domains and the badge, assign complaints and ask for refunds', async () => {
    const filed = await new TestBrowser(service.app, '203.0.113.200').post(
      '/api/public/submit-complaint',
      {
        domain,
        email: 'vera@example.org',
        message: 'The search field has no label.',
        privacyConsent: true,
      },
    );
    expect(filed.statusCode, filed.body).toBe(201);
    const complaintId = (filed.json() as { id: string }).id;
    const badge = `/api/domains/${domain}/badge`;
    const assignee = `/api/complaints/${complaintId}/assignee`;
    const refund = '/api/add-ons/00000000-0000-4000-8000-000000000000/refund';
    const adminWork = [
      ['POST', '/api/domains', { domain: 'second.roles-walk.test' }],
      ['PUT', badge, { settings: defaultBadgeSettings }],
      ['PATCH', assignee, { assignedTo: member.userId }],
      ['DELETE', `/api/domains/${domain}`, undefined],
      ['POST', refund, { reason: 'Rejected in our procurement review' }],
    ] as const;
    for (const [method, url, body] of adminWork) {
      const response = await call(member.browser, method, url, body);
      expect(response.statusCode, `${method} ${url}`).toBe(403);
    }
    const badgeSaved = await call(admin.browser, 'PUT', badge, {
      settings: { ...defaultBadgeSettings, showDate: !defaultBadgeSettings.showDate },
    });
    expect(badgeSaved.statusCode, badgeSaved.body).toBe(200);
    const assigned = await call(admin.browser, 'PATCH', assignee, { assignedTo: admin.userId });
    expect(assigned.statusCode, assigned.body).toBe(200);
    // A second domain needs payment: the admin passes the role check and meets the plan's rule.
    const second = await call(admin.browser, 'POST', '/api/domains', {
      domain: 'second.roles-walk.test',
    });
    expect(second.statusCode, second.body).not.toBe(403);
    expect(second.statusCode).toBeLessThan(500);
    // The terms' refund of an add-on: an admin passes the role check (no such add-on here).
    const refunded = await call(admin.browser, 'POST', refund, {
      reason: 'Rejected in our procurement review',
    });
    expect(refunded.statusCode, refunded.body).toBe(404);
    const archived = await call(admin.browser, 'DELETE', `/api/domains/${domain}`, undefined);
    expect(archived.statusCode, archived.body).toBe(200);
  });
});
