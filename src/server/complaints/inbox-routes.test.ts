import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startAccountService,
  TestBrowser,
  type AccountService,
} from '../../../test/support/auth.js';
import { eventually } from '../../../test/support/service.js';
import {
  ComplaintDetailsResponse,
  ComplaintListResponse,
  ComplaintResponse,
  PublicStatusResponse,
} from '#contract/index.js';
import { complaints, domains, outboxEmails, users } from '#db/schema/index.js';

/** The inbox over HTTP: sign-in, CSRF, validation, 404 for others, and what each call changes. */

let service: AccountService;
let owner: TestBrowser;
let other: TestBrowser;
let anonymous: TestBrowser;
let ownerId: string;
const password = 'Correct-Horse1!';
const domain = 'routes-inbox.test';

async function registered(email: string, address: string) {
  const browser = new TestBrowser(service.app, address);
  const response = await browser.post('/api/auth/register', { email, password });
  expect(response.statusCode).toBe(201);
  return browser;
}

type Method = 'GET' | 'POST' | 'PATCH';
async function send(browser: TestBrowser, method: Method, url: string, payload?: unknown) {
  if (method === 'GET') return browser.get(url);
  if (method === 'POST') return browser.post(url, payload);
  return service.app.inject({
    method,
    url,
    remoteAddress: '127.0.0.1',
    headers: {
      cookie: browser.cookieHeader,
      'x-csrf-token': await browser.token(),
      ...(payload !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(payload !== undefined ? { payload: JSON.stringify(payload) } : {}),
  });
}

let counter = 0;
async function fileComplaint(values: { message?: string; pageUrl?: string } = {}) {
  counter += 1;
  const response = await anonymous.post('/api/public/submit-complaint', {
    domain,
    name: 'Vera Visitor',
    email: `vera${counter}@example.org`,
    message: values.message ?? `The form on page ${counter} has no labels.`,
    privacyConsent: true,
    ...(values.pageUrl ? { pageUrl: values.pageUrl } : {}),
  });
  expect(response.statusCode, response.body).toBe(201);
  return (response.json() as { id: string }).id;
}

async function stored(id: string) {
  const [row] = await service.database.db.select().from(complaints).where(eq(complaints.id, id));
  return row!;
}

beforeAll(async () => {
  service = await startAccountService(
    { publicUrl: 'https://conformly.example' },
    { complaintRateLimit: { max: 1000, timeWindowMs: 60_000 } },
  );
  owner = await registered('owner@routes-inbox.test', '198.51.100.1');
  other = await registered('other@elsewhere.test', '198.51.100.2');
  anonymous = new TestBrowser(service.app, '198.51.100.3');
  const [row] = await service.database.db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.email, 'owner@routes-inbox.test'));
  ownerId = row!.id;
  await service.database.db.insert(domains).values({
    userId: ownerId,
    domain,
    status: 'active',
    domainIndex: 1,
    monthlyPrice: 4900,
    monitoringSince: new Date(),
    // Status pages and their complaint form answer only for verified domains.
    verifiedAt: new Date(),
    verificationMethod: 'dns',
  });
});
afterAll(async () => {
  await service?.close();
});

describe('the complaint inbox API', () => {
  it('lists, filters and searches case-insensitively for the owner, with counters', async () => {
    const labels = await fileComplaint({ message: 'LABELS are missing on the Contact form' });
    await fileComplaint({ message: 'Captions are missing' });
    const response = await owner.get('/api/complaints?search=contact%20FORM');
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('private, no-store');
    const answer = ComplaintListResponse.parse(response.json());
    expect(answer.complaints.map((c) => c.id)).toEqual([labels]);
    expect(answer.total).toBe(1);
    expect(answer.counts.total).toBeGreaterThanOrEqual(2);

    const filtered = ComplaintListResponse.parse(
      (
        await owner.get(`/api/complaints?domain=${domain}&status=new&type=accessibility&limit=1`)
      ).json(),
    );
    expect(filtered.complaints).toHaveLength(1);
    expect(filtered.total).toBeGreaterThanOrEqual(2);
    const secondPage = ComplaintListResponse.parse(
      (await owner.get('/api/complaints?limit=1&page=2')).json(),
    );
    expect(secondPage.offset).toBe(1);
    expect(secondPage.complaints[0]?.id).not.toBe(filtered.complaints[0]?.id);
    // Empty filters from a form mean "any".
    expect((await owner.get('/api/complaints?status=&type=&search=&domain=')).statusCode).toBe(200);
  });

  it.each([
    [
      'an unknown status',
      'status=open',
      'status: Status must be new, in_progress, resolved or closed',
    ],
    [
      'an unknown type',
      'type=rant',
      'type: Type must be accessibility, technical, compliance or general',
    ],
    ['a limit over 100', 'limit=101', 'limit: Limit must be at most 100'],
    ['a negative offset', 'offset=-1', 'offset: Offset must be 0 or more'],
    ['page 0', 'page=0', 'page: Page must be at least 1'],
    ['a domain that is not one', 'domain=not%20a%20domain', 'is not a domain'],
  ])('refuses %s with 400 and a message', async (_case, query, message) => {
    const response = await owner.get(`/api/complaints?${query}`);
    expect(response.statusCode).toBe(400);
    expect((response.json() as { message: string }).message).toContain(message);
  });

  it('answers 401 to a visitor who is not signed in', async () => {
    const id = await fileComplaint();
    expect((await anonymous.get('/api/complaints')).statusCode).toBe(401);
    expect((await anonymous.get(`/api/complaints/${id}`)).statusCode).toBe(401);
    const patch = await send(anonymous, 'PATCH', `/api/complaints/${id}/status`, {
      status: 'closed',
    });
    expect(patch.statusCode).toBe(401);
    expect((await stored(id)).status).toBe('new');
  });

  it('answers 404 to another account on every call and changes nothing', async () => {
    const id = await fileComplaint();
    const before = await stored(id);
    const calls: [Method, string, unknown][] = [
      ['GET', `/api/complaints/${id}`, undefined],
      ['PATCH', `/api/complaints/${id}/status`, { status: 'resolved' }],
      ['PATCH', `/api/complaints/${id}/notes`, { notes: 'Mine now' }],
      ['PATCH', `/api/complaints/${id}/assignee`, { assignedTo: null }],
      ['POST', `/api/complaints/${id}/reply`, { message: 'Hello', isInternal: false }],
    ];
    for (const [method, url, payload] of calls) {
      const response = await send(other, method, url, payload);
      expect(response.statusCode, `${method} ${url}`).toBe(404);
      expect(response.json()).toEqual({ message: 'Complaint not found' });
    }
    const list = ComplaintListResponse.parse((await other.get('/api/complaints')).json());
    expect(list).toMatchObject({ total: 0, complaints: [], domains: [] });
    expect(await stored(id)).toEqual(before);
    // Unknown and malformed ids are the same 404 for the owner.
    for (const unknown of ['00000000-0000-4000-8000-000000000000', 'nope']) {
      expect((await owner.get(`/api/complaints/${unknown}`)).statusCode).toBe(404);
    }
  });

  it('answers the details with the conversation and the named page', async () => {
    const id = await fileComplaint({ pageUrl: `https://${domain}/contact` });
    const response = await owner.get(`/api/complaints/${id}`);
    expect(response.statusCode).toBe(200);
    const { complaint, page } = ComplaintDetailsResponse.parse(response.json());
    expect(complaint.conversation).toHaveLength(1);
    expect(complaint.pageUrl).toBe(`https://${domain}/contact`);
    expect(page).toMatchObject({ url: `https://${domain}/contact`, scan: null, findings: [] });
    // The owner's alert names the page too.
    const alert = await eventually(async () => {
      const rows = await service.database.db
        .select()
        .from(outboxEmails)
        .where(eq(outboxEmails.to, 'owner@routes-inbox.test'));
      return rows.find((row) => row.text.includes(complaint.submitterEmail));
    });
    expect(alert.text).toContain(`Page: https://${domain}/contact`);
  });

  it('sets each status with PATCH, dating a resolution', async () => {
    const id = await fileComplaint();
    for (const status of ['in_progress', 'resolved', 'closed', 'new'] as const) {
      const response = await send(owner, 'PATCH', `/api/complaints/${id}/status`, { status });
      expect(response.statusCode).toBe(200);
      expect(ComplaintResponse.parse(response.json()).complaint.status).toBe(status);
      expect((await stored(id)).status).toBe(status);
      if (status === 'resolved') expect((await stored(id)).resolvedAt).not.toBeNull();
    }
    const bad = await send(owner, 'PATCH', `/api/complaints/${id}/status`, { status: 'done' });
    expect(bad.statusCode).toBe(400);
    expect((await stored(id)).status).toBe('new');
  });

  it('keeps notes, refusing blank ones with 400 and nothing changed', async () => {
    const id = await fileComplaint();
    const saved = await send(owner, 'PATCH', `/api/complaints/${id}/notes`, {
      notes: '  Call the agency.  ',
    });
    expect(saved.statusCode).toBe(200);
    expect((await stored(id)).internalNotes).toBe('Call the agency.');
    for (const notes of ['', '   \n', undefined]) {
      const response = await send(owner, 'PATCH', `/api/complaints/${id}/notes`, { notes });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ message: 'notes: Notes must not be blank.' });
    }
    expect((await stored(id)).internalNotes).toBe('Call the agency.');
  });

  it('assigns to the owner or nobody; another account id is refused', async () => {
    const id = await fileComplaint();
    const mine = await send(owner, 'PATCH', `/api/complaints/${id}/assignee`, {
      assignedTo: ownerId,
    });
    expect(mine.statusCode).toBe(200);
    expect((await stored(id)).assignedTo).toBe(ownerId);
    const someone = await send(owner, 'PATCH', `/api/complaints/${id}/assignee`, {
      assignedTo: '00000000-0000-4000-8000-000000000000',
    });
    expect(someone.statusCode).toBe(400);
    expect((await stored(id)).assignedTo).toBe(ownerId);
    const nobody = await send(owner, 'PATCH', `/api/complaints/${id}/assignee`, {
      assignedTo: null,
    });
    expect(nobody.statusCode).toBe(200);
    expect((await stored(id)).assignedTo).toBeNull();
  });

  it('e-mails a public reply once, never an internal one, and refuses a blank reply', async () => {
    const id = await fileComplaint();
    const visitor = (await stored(id)).submitterEmail;
    const mailsToVisitor = async () => {
      // Wait for every e-mail sent so far (the owner's alert included) to be recorded.
      await eventually(async () => {
        const rows = await service.database.db
          .select()
          .from(outboxEmails)
          .where(eq(outboxEmails.to, 'owner@routes-inbox.test'));
        return rows.some((row) => row.text.includes(visitor)) ? true : undefined;
      });
      return service.database.db.select().from(outboxEmails).where(eq(outboxEmails.to, visitor));
    };

    for (const payload of [{ message: '  ' }, { message: '' }, {}]) {
      const blank = await send(owner, 'POST', `/api/complaints/${id}/reply`, payload);
      expect(blank.statusCode).toBe(400);
      expect(blank.json()).toEqual({ message: 'message: Reply must not be blank.' });
    }
    expect((await stored(id)).conversation).toHaveLength(1);

    const internal = await send(owner, 'POST', `/api/complaints/${id}/reply`, {
      message: 'Internal: check with design.',
      isInternal: true,
    });
    expect(internal.statusCode).toBe(201);
    const publicReply = await send(owner, 'POST', `/api/complaints/${id}/reply`, {
      message: 'Fixed: every field has a label now.',
      isInternal: false,
    });
    expect(publicReply.statusCode).toBe(201);
    const { complaint } = ComplaintResponse.parse(publicReply.json());
    expect(complaint.conversation.map((entry) => entry.isInternal)).toEqual([false, true, false]);
    expect(complaint.status).toBe('in_progress');

    const mails = await eventually(async () => {
      const rows = await mailsToVisitor();
      return rows.length > 0 ? rows : undefined;
    });
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toContain('Fixed: every field has a label now.');
    expect(mails[0]!.text).not.toContain('Internal: check with design.');
  });

  it('takes the page a visitor names only on the domain complained about', async () => {
    const elsewhere = await anonymous.post('/api/public/submit-complaint', {
      domain,
      email: 'page@example.org',
      message: 'Broken page',
      privacyConsent: true,
      pageUrl: 'https://evil.example/phish',
    });
    expect(elsewhere.statusCode).toBe(400);
    expect(elsewhere.json()).toEqual({ message: `pageUrl: The page must be on ${domain}` });
    const notUrl = await anonymous.post('/api/public/submit-complaint', {
      domain,
      email: 'page@example.org',
      message: 'Broken page',
      privacyConsent: true,
      pageUrl: 'javascript:alert(1)',
    });
    expect(notUrl.statusCode).toBe(400);
    expect(
      await service.database.db.$count(
        complaints,
        eq(complaints.submitterEmail, 'page@example.org'),
      ),
    ).toBe(0);
  });

  it('shows the resolution and its date on the public status trail, not the text', async () => {
    const id = await fileComplaint({ message: 'Very private words about my disability.' });
    await send(owner, 'POST', `/api/complaints/${id}/reply`, { message: 'Answer words here' });
    const resolved = ComplaintResponse.parse(
      (await send(owner, 'PATCH', `/api/complaints/${id}/status`, { status: 'resolved' })).json(),
    ).complaint;
    const status = PublicStatusResponse.parse(
      (await anonymous.get(`/api/public/status/${domain}`)).json(),
    );
    expect(status.auditTrail).toContainEqual({
      type: 'resolution',
      event: 'Accessibility concern resolved',
      status: 'Resolved',
      date: resolved.resolvedAt,
      details: 'The accessibility concern was resolved.',
    });
    const text = JSON.stringify(status);
    expect(text).not.toContain('private words');
    expect(text).not.toContain('Answer words');
    expect(text).not.toContain('Vera');
  });
});
