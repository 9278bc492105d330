import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestPglite } from '../../../test/support/db.js';
import {
  call,
  eventually,
  newVisitor,
  testConfig,
  type Visitor,
} from '../../../test/support/service.js';
import { PublicStatusResponse, SubmitComplaintResponse } from '#contract/index.js';
import type { Database } from '#db/client.js';
import { complaints, domains, outboxEmails, scans, users } from '#db/schema/index.js';
import { createQueue, type PgBoss } from '#jobs/boss.js';
import { buildApp } from '../app.js';
import { senderKey } from './routes.js';

/** POST /api/public/submit-complaint through HTTP, as the status page's dialog sends it. */

let database: Database;
let boss: PgBoss;
let app: FastifyInstance;
let visitor: Visitor;

const complaintLimit = 3;
const url = '/api/public/submit-complaint';

const valid = {
  domain: 'monitored.test',
  name: 'Ada',
  email: 'ada@example.org',
  type: 'complaint',
  priority: 'normal',
  message: 'The search field has no label.',
  privacyConsent: true,
};

/** Every test speaks from an address of its own, so the allowance is the rate-limit test's alone. */
let addressCounter = 0;
const fromNewAddress = () => ({ remoteAddress: `192.0.2.${++addressCounter}` });

/** `who` null: a caller without the client cookie and CSRF token. */
const submit = (payload: unknown, who: Visitor | null = visitor, address = fromNewAddress()) =>
  call(app, who ?? undefined, 'POST', url, payload, address);

beforeAll(async () => {
  database = await openTestPglite();
  boss = await createQueue(database);
  app = await buildApp(
    { ...testConfig, publicUrl: 'https://conformly.example' },
    {
      database,
      boss,
      complaintRateLimit: { max: complaintLimit, timeWindowMs: 60_000 },
      scanRateLimit: { max: 2, timeWindowMs: 60_000 },
    },
  );
  const [owner] = await database.db
    .insert(users)
    .values({ email: 'owner@monitored.test', name: 'Owner' })
    .returning({ id: users.id });
  await database.db.insert(domains).values({
    userId: owner!.id,
    domain: 'monitored.test',
    status: 'trial',
    domainIndex: 1,
    monthlyPrice: 4900,
    monitoringSince: new Date(Date.UTC(2026, 0, 1)),
    // Its owner proved the site is theirs (ADR 0007): its status page takes concerns.
    verifiedAt: new Date(Date.UTC(2026, 0, 1)),
    verificationMethod: 'dns',
  });
  await database.db.insert(scans).values([
    {
      userId: owner!.id,
      url: 'https://monitored.test/',
      domain: 'monitored.test',
      status: 'completed',
      accessibilityScore: 88,
      totalIssues: 4,
      completedAt: new Date(Date.UTC(2026, 0, 2)),
    },
    // Scanned but not monitored: it has a scan, yet no owner to hear a concern.
    {
      url: 'https://scanned-only.test/',
      domain: 'scanned-only.test',
      status: 'completed',
      accessibilityScore: 50,
      totalIssues: 20,
      completedAt: new Date(Date.UTC(2026, 0, 2)),
    },
  ]);
  visitor = await newVisitor(app);
});
afterAll(async () => {
  await app?.close();
  await boss?.stop({ graceful: false, wait: true });
  await database?.close();
});

describe('POST /api/public/submit-complaint', () => {
  it('files the concern, answers 201 with its id and counts it on the public status page', async () => {
    const before = await call(app, undefined, 'GET', '/api/public/status/monitored.test');
    expect(before.statusCode).toBe(200);
    const summaryBefore = PublicStatusResponse.parse(before.json()).complaintSummary;

    const response = await submit({ ...valid, domain: 'https://www.Monitored.test/search' });
    expect(response.statusCode).toBe(201);
    const { id } = SubmitComplaintResponse.parse(response.json());

    const [row] = await database.db.select().from(complaints).where(eq(complaints.id, id));
    expect(row).toMatchObject({
      domain: 'monitored.test',
      type: 'accessibility',
      status: 'new',
      priority: 'medium',
      subject: 'Complaint from the public status page',
      message: 'The search field has no label.',
      submitterEmail: 'ada@example.org',
      submitterName: 'Ada',
    });
    expect(row?.conversation).toMatchObject([
      { author: 'Ada', message: 'The search field has no label.', isInternal: false },
    ]);

    const after = await call(app, undefined, 'GET', '/api/public/status/monitored.test');
    const status = PublicStatusResponse.parse(after.json());
    expect(status.complaintSummary).toEqual({
      total: summaryBefore.total + 1,
      resolved: summaryBefore.resolved,
      active: summaryBefore.active + 1,
    });
    expect(status.auditTrail.some((entry) => entry.type === 'complaint')).toBe(true);
  });

  it("tells the domain's owner by e-mail", async () => {
    const response = await submit({
      ...valid,
      email: 'grace@example.org',
      type: 'suggestion',
      priority: 'urgent',
      message: 'Please add a skip link.',
    });
    expect(response.statusCode).toBe(201);
    const mail = await eventually(async () => {
      const rows = await database.db
        .select()
        .from(outboxEmails)
        .where(eq(outboxEmails.to, 'owner@monitored.test'));
      return rows.find((row) => row.text.includes('grace@example.org'));
    });
    expect(mail.subject).toBe('New accessibility concern about monitored.test');
    expect(mail.text).toContain('Type: suggestion');
    expect(mail.text).toContain('Priority: urgent');
    expect(mail.text).toContain('Please add a skip link.');
    expect(mail.text).toContain('https://conformly.example/app/dashboard/complaints');
  });

  it.each([
    ['no e-mail address', { ...valid, email: undefined }],
    ['a blank e-mail address', { ...valid, email: '   ' }],
    ['no message', { ...valid, message: undefined }],
    ['a blank message', { ...valid, message: ' \n ' }],
    ['no privacy consent', { ...valid, privacyConsent: undefined }],
    ['a refused privacy consent', { ...valid, privacyConsent: false }],
    ['nothing at all', {}],
  ])('refuses %s with the required-fields message', async (_case, payload) => {
    const response = await submit(payload);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      message: 'Email, message, and privacy consent are required.',
    });
  });

  it.each([
    ['an invalid e-mail address', { email: 'not-an-address' }, 'email: Please enter a valid email'],
    [
      'a message over 5,000 characters',
      { message: 'x'.repeat(5001) },
      'message: Message must be at most 5,000 characters',
    ],
    ['a name over 200 characters', { name: 'n'.repeat(201) }, 'name: Name must be at most 200'],
    ['an unknown type', { type: 'rant' }, 'type: Type must be complaint, suggestion or question'],
    ['an unknown priority', { priority: 'high' }, 'priority: Priority must be normal or urgent'],
    ['something that is not a domain', { domain: 'not a domain' }, 'is not a domain'],
  ])('refuses %s with a clear message', async (_case, change, message) => {
    const response = await submit({ ...valid, ...change });
    expect(response.statusCode).toBe(400);
    expect((response.json() as { message: string }).message).toContain(message);
  });

  it('answers 404 for a domain without monitoring, even one that was scanned', async () => {
    for (const domain of ['unknown.test', 'scanned-only.test']) {
      const response = await submit({ ...valid, domain });
      expect(response.statusCode, domain).toBe(404);
      expect(response.json()).toEqual({
        message: 'Domain Not Found: no compliance monitoring found for this domain.',
      });
    }
  });

  it('answers 403 without the CSRF token, and stores nothing', async () => {
    const before = await database.db.$count(complaints);
    const anonymous = await submit(valid, null);
    expect(anonymous.statusCode).toBe(403);
    const wrongToken = await submit(valid, { ...visitor, token: 'forged' });
    expect(wrongToken.statusCode).toBe(403);
    expect(await database.db.$count(complaints)).toBe(before);
  });

  it('limits concerns per address, counting neither refused calls nor scans against it', async () => {
    const address = fromNewAddress();
    // Refused before counting: bad input and a missing token.
    expect((await submit({ ...valid, message: '' }, visitor, address)).statusCode).toBe(400);
    expect((await submit(valid, null, address)).statusCode).toBe(403);
    // Starting scans uses the scan allowance only.
    for (let i = 0; i < 2; i += 1) {
      const scan = await call(
        app,
        visitor,
        'POST',
        '/api/scans',
        { url: 'http://127.0.0.1:9/' },
        address,
      );
      expect(scan.statusCode).toBe(202);
    }
    for (let i = 0; i < complaintLimit; i += 1) {
      expect((await submit(valid, visitor, address)).statusCode, `concern ${i + 1}`).toBe(201);
    }
    const refused = await submit(valid, visitor, address);
    expect(refused.statusCode).toBe(429);
    expect((refused.json() as { message: string }).message).toMatch(
      /^Too many concerns sent from your address; please try again in /,
    );
    // The scan allowance is spent by its own calls only, and another address is not affected.
    const thirdScan = await call(
      app,
      visitor,
      'POST',
      '/api/scans',
      { url: 'http://127.0.0.1:9/' },
      address,
    );
    expect(thirdScan.statusCode).toBe(429);
    expect((await submit(valid)).statusCode).toBe(201);
  });

  it('counts an IPv6 /64 network as one address', async () => {
    const inNetwork = (n: number) => ({ remoteAddress: `2001:db8:77:${n.toString(16)}00::${n}` });
    const sameNetwork = (n: number) => ({ remoteAddress: `2001:db8:77:100::${n}` });
    for (let n = 1; n <= complaintLimit; n += 1) {
      expect((await submit(valid, visitor, sameNetwork(n))).statusCode, `concern ${n}`).toBe(201);
    }
    // A fresh address in the same /64 is the same sender.
    expect((await submit(valid, visitor, sameNetwork(99))).statusCode).toBe(429);
    // Another /64 is another sender.
    expect((await submit(valid, visitor, inNetwork(2))).statusCode).toBe(201);
  });
});

describe('senderKey', () => {
  it('keys IPv4 by address and IPv6 by its /64 network', () => {
    expect(senderKey('192.0.2.7')).toBe('192.0.2.7');
    expect(senderKey('::ffff:192.0.2.7')).toBe('192.0.2.7');
    expect(senderKey('2001:db8:1:2:aaaa:bbbb:cccc:dddd')).toBe('2001:db8:1:2::/64');
    expect(senderKey('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(senderKey('2001:0db8:0001:0002::ffff%eth0')).toBe('2001:db8:1:2::/64');
    expect(senderKey('::1')).toBe('0:0:0:0::/64');
  });
});
