import { eq, inArray } from 'drizzle-orm';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestPglite } from '../../../test/support/db.js';
import { trendOf } from '#contract/index.js';
import type { Database } from '#db/client.js';
import { domains, issues, outboxEmails, scans, users } from '#db/schema/index.js';
import { createMailer, type Mailer } from '#email/mailer.js';
import { createQueue, type PgBoss } from '#jobs/boss.js';
import { buildApp } from '../app.js';
import { recordPaymentFailed, sweepLifecycle } from '../billing/lifecycle.js';
import { DemoPaymentProvider } from '../billing/payments.js';
import {
  sendLifecycleNotices,
  sendScanAlert,
  sendWeeklyDigests,
  weekOf,
  type AlertDeps,
} from './service.js';
import { UnsubscribeSigner } from './unsubscribe.js';

/**
 * Owners' alert e-mails on PGlite, without HTTP except for the unsubscribe link (which must work
 * signed out): which events send one, to whom, with what, and never twice.
 */

let database: Database;
let mailer: Mailer;
let deps: AlertDeps;
let boss: PgBoss;
let app: FastifyInstance;
const publicUrl = 'https://conformly.example';
const day = 86_400_000;

beforeAll(async () => {
  database = await openTestPglite();
  mailer = createMailer({
    db: database.db,
    smtpUrl: undefined,
    from: 'Conformly <no-reply@localhost>',
    log: Fastify({ logger: false }).log,
  });
  deps = {
    db: database.db,
    mailer,
    publicUrl,
    signer: new UnsubscribeSigner(database.db, undefined),
  };
  boss = await createQueue(database);
  app = await buildApp(
    { logLevel: 'silent', allowPrivateTargets: false, publicUrl },
    { database, boss, mailer },
  );
});
afterAll(async () => {
  await app?.close();
  await boss?.stop({ graceful: false, wait: true });
  await mailer?.close();
  await database?.close();
});

let counter = 0;

async function owner(preferences: Record<string, boolean> = {}) {
  counter += 1;
  const [row] = await database.db
    .insert(users)
    .values({
      email: `owner${counter}@example.org`,
      name: `Owner ${counter}`,
      notificationPreferences: preferences,
    })
    .returning({ id: users.id, email: users.email });
  return row!;
}

async function monitor(
  userId: string,
  values: Partial<typeof domains.$inferInsert> = {},
): Promise<string> {
  const domain = values.domain ?? `site${++counter}.test`;
  await database.db.insert(domains).values({
    userId,
    domain,
    status: 'active',
    domainIndex: 1,
    monthlyPrice: 4900,
    verifiedAt: new Date(),
    verificationMethod: 'dns',
    ...values,
  });
  return domain;
}

interface SeedIssue {
  key: string;
  impact: 'critical' | 'serious' | 'moderate' | 'minor';
  title?: string;
}

async function scanOf(
  userId: string,
  domain: string,
  options: {
    score: number;
    issues?: SeedIssue[];
    origin?: 'monitoring' | 'request';
    completedAt: Date;
    url?: string;
  },
): Promise<string> {
  const [row] = await database.db
    .insert(scans)
    .values({
      userId,
      domain,
      url: options.url ?? `https://${domain}/`,
      origin: options.origin ?? 'monitoring',
      status: 'completed',
      accessibilityScore: options.score,
      totalIssues: options.issues?.length ?? 0,
      completedAt: options.completedAt,
    })
    .returning({ id: scans.id });
  for (const issue of options.issues ?? []) {
    await database.db.insert(issues).values({
      scanId: row!.id,
      issueKey: issue.key,
      title: issue.title ?? `Problem ${issue.key}`,
      description: 'A problem.',
      rule: issue.key,
      ruleKey: issue.key,
      impact: issue.impact,
      kind: 'violation',
      confidence: 'confirmed',
      selector: `#${issue.key}`,
      source: 'axe',
      engines: ['axe'],
      rules: { axe: [issue.key] },
    });
  }
  return row!.id;
}

const mailsTo = (to: string) =>
  database.db.select().from(outboxEmails).where(eq(outboxEmails.to, to));

const lastWeek = new Date(Date.now() - 7 * day);
const now = new Date();

describe('alerts after a monitoring rescan', () => {
  it('e-mails exactly once about a new critical issue, naming it, with report and status links', async () => {
    const account = await owner();
    const domain = await monitor(account.id);
    await scanOf(account.id, domain, {
      score: 80,
      issues: [{ key: 'color-contrast', impact: 'serious' }],
      completedAt: lastWeek,
    });
    const rescan = await scanOf(account.id, domain, {
      score: 78,
      issues: [
        { key: 'color-contrast', impact: 'serious' },
        { key: 'image-alt', impact: 'critical', title: 'Images must have alternate text' },
        { key: 'region', impact: 'moderate' },
      ],
      completedAt: now,
    });

    expect(await sendScanAlert(deps, rescan)).toEqual({ sent: true, newIssues: 1, drop: 2 });
    // A retried job, or a second worker, finds it sent.
    expect(await sendScanAlert(deps, rescan)).toEqual({ sent: false, reason: 'already sent' });

    const mails = await mailsTo(account.email);
    expect(mails).toHaveLength(1);
    const [mail] = mails;
    expect(mail!.subject).toBe(`New accessibility issues on ${domain}`);
    expect(mail!.text).toContain('critical: Images must have alternate text (#image-alt)');
    // Only what is new: the known serious issue and the moderate one are not listed.
    expect(mail!.text).not.toContain('Problem color-contrast');
    expect(mail!.text).not.toContain('Problem region');
    expect(mail!.text).toContain(`${publicUrl}/report/${rescan}`);
    expect(mail!.text).toContain(`${publicUrl}/status/${domain}`);
    expect(mail!.html).toContain('<li>critical: Images must have alternate text (#image-alt)</li>');
    expect(mail!.text).toMatch(/Unsubscribe: https:\/\/conformly\.example\/unsubscribe\?token=/);
    expect(mail!.headers).toMatchObject({
      'List-Unsubscribe': expect.stringMatching(
        /^<https:\/\/conformly\.example\/api\/account\/unsubscribe\?token=.+>$/,
      ),
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    });
    expect(mail!.dedupeKey).toBe(`scan-alert:${rescan}`);
  });

  it('e-mails about a score 5 or more below the previous scan of that page, not 4', async () => {
    const account = await owner();
    const domain = await monitor(account.id);
    await scanOf(account.id, domain, { score: 90, completedAt: new Date(Date.now() - 14 * day) });
    const small = await scanOf(account.id, domain, { score: 86, completedAt: lastWeek });
    expect(await sendScanAlert(deps, small)).toMatchObject({ sent: false });
    const big = await scanOf(account.id, domain, { score: 81, completedAt: now });
    expect(await sendScanAlert(deps, big)).toEqual({ sent: true, newIssues: 0, drop: 5 });
    const [mail] = await mailsTo(account.email);
    expect(mail!.subject).toBe(`Accessibility score dropped on ${domain}`);
    expect(mail!.text).toContain(`fell from 86 to 81`);
  });

  it('sends nothing to an owner who opted out, nor for a scan someone started by hand', async () => {
    const quiet = await owner({ scanAlerts: false });
    const quietDomain = await monitor(quiet.id);
    await scanOf(quiet.id, quietDomain, { score: 95, completedAt: lastWeek });
    const quietRescan = await scanOf(quiet.id, quietDomain, {
      score: 40,
      issues: [{ key: 'image-alt', impact: 'critical' }],
      completedAt: now,
    });
    expect(await sendScanAlert(deps, quietRescan)).toEqual({
      sent: false,
      reason: 'owner opted out',
    });

    const busy = await owner();
    const busyDomain = await monitor(busy.id);
    await scanOf(busy.id, busyDomain, { score: 95, completedAt: lastWeek });
    const byHand = await scanOf(busy.id, busyDomain, {
      score: 40,
      issues: [{ key: 'image-alt', impact: 'critical' }],
      origin: 'request',
      completedAt: now,
    });
    expect(await sendScanAlert(deps, byHand)).toEqual({
      sent: false,
      reason: 'not a monitoring scan',
    });
    expect(await mailsTo(quiet.email)).toEqual([]);
    expect(await mailsTo(busy.email)).toEqual([]);
  });
});

describe('weekly digest', () => {
  it('lists each monitored domain with score, trend and issues, once per week', async () => {
    const account = await owner();
    const first = await monitor(account.id);
    const second = await monitor(account.id, { domainIndex: 2, monthlyPrice: 3900 });
    await monitor(account.id, { domainIndex: 3, status: 'archived' });
    await scanOf(account.id, first, { score: 70, completedAt: lastWeek });
    await scanOf(account.id, first, {
      score: 82,
      issues: [{ key: 'region', impact: 'moderate' }],
      completedAt: now,
    });
    await scanOf(account.id, second, { score: 64, completedAt: now });
    const quiet = await owner({ weeklyDigest: false });
    await monitor(quiet.id);

    await sendWeeklyDigests(deps, now);
    await sendWeeklyDigests(deps, now);

    const mails = await mailsTo(account.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe('Your weekly accessibility digest');
    // No site audit yet: the digest says the figures judge the pages scanned, not the site.
    expect(mails[0]!.text).toContain(
      `${first}: score 82 (1 page, site not audited yet) (before: 70), improving, 1 issues`,
    );
    expect(mails[0]!.text).toContain(
      `${second}: score 64 (1 page, site not audited yet), stable, 0 issues`,
    );
    expect(mails[0]!.text).not.toContain('archived');
    expect(mails[0]!.html).toContain('<th scope="col"');
    expect(await mailsTo(quiet.email)).toEqual([]);
    const [stored] = await database.db.select().from(users).where(eq(users.id, account.id));
    expect(stored!.lastDigestSentAt).toEqual(now);

    await sendWeeklyDigests(deps, new Date(now.getTime() + 7 * day));
    expect(await mailsTo(account.email)).toHaveLength(2);
  });

  it('weeks start on Monday (UTC) and trends follow the ±5 rule', () => {
    expect(weekOf(new Date('2026-11-22T23:00:00Z'))).toBe('2026-11-16');
    expect(weekOf(new Date('2026-11-23T00:30:00Z'))).toBe('2026-11-23');
    expect([trendOf(76, 70), trendOf(75, 70), trendOf(64, 70), trendOf(80, null)]).toEqual([
      'up',
      'stable',
      'down',
      'stable',
    ]);
  });
});

describe('plan notices', () => {
  it('tells of a free month ending within 7 days, once', async () => {
    const account = await owner();
    const soon = await monitor(account.id, {
      status: 'trial',
      trialEndsAt: new Date(Date.now() + 5 * day),
      currentPeriodEnd: new Date(Date.now() + 5 * day),
    });
    await monitor(account.id, {
      status: 'trial',
      domainIndex: 2,
      trialEndsAt: new Date(Date.now() + 20 * day),
      currentPeriodEnd: new Date(Date.now() + 20 * day),
    });
    await sendLifecycleNotices(deps, new Date());
    await sendLifecycleNotices(deps, new Date());
    const mails = await mailsTo(account.email);
    expect(mails.map((mail) => mail.subject)).toEqual([
      expect.stringContaining(`Your free month for ${soon} ends on`),
    ]);
    expect(mails[0]!.text).toContain('There is no card on file');
  });

  it('tells of a month that could not be paid, once, and not an owner who opted out', async () => {
    const account = await owner();
    const unpaid = await monitor(account.id, {
      status: 'trial',
      trialEndsAt: new Date(Date.now() - day),
      currentPeriodEnd: new Date(Date.now() - day),
    });
    const refused = await owner();
    const refusedDomain = await monitor(refused.id);
    const quiet = await owner({ billing: false });
    await monitor(quiet.id, {
      status: 'trial',
      trialEndsAt: new Date(Date.now() - day),
      currentPeriodEnd: new Date(Date.now() - day),
    });

    // The hourly run: the free month ended without a card, so the grace period starts.
    await sweepLifecycle(database.db, new DemoPaymentProvider(), new Date());
    // The provider reports a refused charge (Stripe's invoice.payment_failed).
    await recordPaymentFailed(database.db, refused.id, new Date());
    await sendLifecycleNotices(deps, new Date());
    await sendLifecycleNotices(deps, new Date());

    const [noCard, ...rest] = await mailsTo(account.email);
    expect(rest).toEqual([]);
    expect(noCard!.subject).toBe(`Payment needed for ${unpaid}`);
    expect(noCard!.text).toContain('30-day grace period');
    const failed = await mailsTo(refused.email);
    expect(failed.map((mail) => mail.subject)).toEqual([`Payment failed for ${refusedDomain}`]);
    expect(await mailsTo(quiet.email)).toEqual([]);
  });
});

describe('unsubscribe links, signed out', () => {
  async function alertLink(kind: 'scanAlerts' | 'weeklyDigest' | 'billing', userId: string) {
    return deps.signer.sign({ userId, kind });
  }

  it('show a confirm page on GET, and unsubscribe by one-click POST without a session', async () => {
    const account = await owner();
    const token = await alertLink('weeklyDigest', account.id);
    const opened = await app.inject({
      method: 'GET',
      url: `/api/account/unsubscribe?token=${encodeURIComponent(token)}`,
    });
    expect(opened.statusCode).toBe(303);
    expect(opened.headers.location).toBe(`/unsubscribe?token=${encodeURIComponent(token)}`);
    const preview = await app.inject({
      method: 'GET',
      url: `/api/account/unsubscribe/preview?token=${encodeURIComponent(token)}`,
    });
    expect(preview.json()).toMatchObject({ kind: 'weeklyDigest', subscribed: true });
    expect(preview.json().email).not.toContain(account.email.split('@')[0]);

    // What a mail client sends for List-Unsubscribe-Post (RFC 8058): no cookie, no CSRF token.
    const oneClick = await app.inject({
      method: 'POST',
      url: `/api/account/unsubscribe?token=${encodeURIComponent(token)}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(oneClick.statusCode).toBe(200);
    expect(oneClick.json()).toMatchObject({ kind: 'weeklyDigest', subscribed: false });
    const [stored] = await database.db.select().from(users).where(eq(users.id, account.id));
    expect(stored!.notificationPreferences).toEqual({ weeklyDigest: false });

    // The confirm page's button: JSON body; unsubscribing twice is fine.
    const again = await app.inject({
      method: 'POST',
      url: '/api/account/unsubscribe',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ token }),
    });
    expect(again.json()).toMatchObject({ subscribed: false });
  });

  it('rejects a tampered token and changes nothing', async () => {
    const account = await owner();
    const other = await owner();
    const token = await alertLink('scanAlerts', account.id);
    const [payload, mac] = token.split('.');
    // Another account named in the payload, the signature kept.
    const forged = `${Buffer.from(`${other.id}:scanAlerts`).toString('base64url')}.${mac}`;
    const flipped = `${payload}.${mac!.slice(0, -2)}${mac!.endsWith('AA') ? 'BB' : 'AA'}`;
    for (const bad of [forged, flipped, 'garbage', `${payload}`]) {
      const response = await app.inject({
        method: 'POST',
        url: `/api/account/unsubscribe?token=${encodeURIComponent(bad)}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'List-Unsubscribe=One-Click',
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ message: 'This unsubscribe link is not valid.' });
    }
    const stored = await database.db
      .select({ preferences: users.notificationPreferences })
      .from(users)
      .where(inArray(users.id, [account.id, other.id]));
    expect(stored.map((row) => row.preferences)).toEqual([{}, {}]);
  });
});
