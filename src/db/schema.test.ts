import { eq, getTableName, sql } from 'drizzle-orm';
import { createSelectSchema } from 'drizzle-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseTargets } from '../../test/support/db.js';
import type { Database } from './client.js';
import { pgErrorCode, pgErrorCodes } from './errors.js';
import {
  addOns,
  artifacts,
  auditSessions,
  authLogs,
  complaints,
  domainHistory,
  domainOwnerships,
  domains,
  engineResults,
  issues,
  outboxEmails,
  pageScans,
  scans,
  sessions,
  subscriptions,
  users,
} from './schema/index.js';
import { billingAccountOf } from '../../test/support/billing-account.js';

async function expectSqlState(query: Promise<unknown>, code: string): Promise<void> {
  const error = await query.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error, 'the statement should have been refused').toBeDefined();
  expect(pgErrorCode(error)).toBe(code);
}

let counter = 0;
/** Values unique within one database, so the tests of a file do not collide. */
const unique = (label: string) => `${label}-${++counter}`;

describe.each(databaseTargets)('data model on $name', ({ open }) => {
  let database: Database;
  const db = () => database.db;

  beforeAll(async () => {
    database = await open();
  });
  afterAll(async () => {
    await database?.close();
  });

  async function addUser(email = `${unique('owner')}@example.org`) {
    const [user] = await db().insert(users).values({ email, name: 'Owner' }).returning();
    return user!;
  }

  async function addScan(values: Partial<typeof scans.$inferInsert> = {}) {
    const [scan] = await db()
      .insert(scans)
      .values({ url: 'https://example.org/', domain: 'example.org', ...values })
      .returning();
    return scan!;
  }

  it('gives a new user the spec defaults', async () => {
    const user = await addUser();
    expect(user).toMatchObject({
      plan: 'compliance_shield',
      emailVerified: false,
      passwordResetCodeUsed: false,
      passwordHash: null,
      googleId: null,
    });
    expect(user.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(user.createdAt).toBeInstanceOf(Date);
    expect(user.updatedAt).toBeInstanceOf(Date);
    // The subscription defaults live in the billing account its personal organisation gets.
    expect(await billingAccountOf(database.db, user.id)).toMatchObject({
      subscriptionStatus: 'inactive',
      interval: 'month',
      trialUsed: false,
      cardAdded: false,
    });
  });

  it('refuses a second account for the same e-mail in any letter case', async () => {
    const email = `${unique('ann')}@example.org`;
    await addUser(email);
    await expectSqlState(addUser(email.toUpperCase()), pgErrorCodes.uniqueViolation);
  });

  it('requires the fields the spec marks required', async () => {
    await expectSqlState(
      database.executeSql(`insert into users (email) values ('no-name@example.org')`),
      pgErrorCodes.notNullViolation,
    );
  });

  it('keeps sessions, sign-in logs and outgoing mail', async () => {
    const user = await addUser();
    const expiresAt = new Date(Date.now() + 86_400_000);
    await db()
      .insert(sessions)
      .values({ idHash: unique('hash'), userId: user.id, csrfSecret: 's', expiresAt });
    await db()
      .insert(authLogs)
      .values({
        email: user.email,
        event: 'login',
        success: true,
        userId: user.id,
        details: { method: 'password' },
      });
    const [mail] = await db()
      .insert(outboxEmails)
      .values({ to: user.email, subject: 'Reset code', text: 'Your code is 123456' })
      .returning();

    const [session] = await db().select().from(sessions).where(eq(sessions.userId, user.id));
    expect(session?.expiresAt.getTime()).toBe(expiresAt.getTime());
    const [log] = await db().select().from(authLogs).where(eq(authLogs.userId, user.id));
    expect(log).toMatchObject({ event: 'login', success: true, details: { method: 'password' } });
    expect(typeof log?.id).toBe('number');
    expect(mail).toMatchObject({ sentAt: null, html: null });
  });

  it('starts a scan pending with empty live progress', async () => {
    const scan = await addScan();
    expect(scan).toMatchObject({
      status: 'pending',
      stage: 'initializing',
      analysisScore: 0,
      isPublic: false,
      totalIssues: 0,
      accessibilityScore: null,
      toolProgress: 0,
      overallProgress: 0,
      logs: [],
      engineErrors: {},
      screenshots: [],
      userId: null,
      jobId: null,
    });
  });

  it('stores live progress and a finished page scan', async () => {
    const scan = await addScan();
    const log = {
      type: 'info' as const,
      message: 'axe started',
      tool: 'axe' as const,
      timestamp: new Date().toISOString(),
    };
    await db()
      .update(scans)
      .set({
        status: 'completed',
        stage: 'complete',
        overallProgress: 100,
        logs: [log],
        engineErrors: { ibm: 'timed out after 30000 ms' },
        accessibilityScore: 87,
        scoreLabel: 'Good',
        processingTimes: { load: 40, axe: 250, pa11y: 60, ibm: 110, total: 460 },
        rawOutput: { axe: { violations: [], passes: [], incomplete: [], error: null } },
        engineVersions: { axe: '4.14.1' },
      })
      .where(eq(scans.id, scan.id));
    const [stored] = await db().select().from(scans).where(eq(scans.id, scan.id));
    expect(stored).toMatchObject({
      status: 'completed',
      logs: [log],
      engineErrors: { ibm: 'timed out after 30000 ms' },
      processingTimes: { total: 460 },
      rawOutput: { axe: { violations: [], error: null } },
    });
    expect(stored!.updatedAt.getTime()).toBeGreaterThanOrEqual(scan.updatedAt.getTime());
  });

  it('refuses a status, stage or progress outside the vocabulary', async () => {
    const scan = await addScan();
    await expectSqlState(
      database.executeSql(`update scans set status = 'done' where id = $1`, [scan.id]),
      pgErrorCodes.checkViolation,
    );
    await expectSqlState(
      db().update(scans).set({ overallProgress: 101 }).where(eq(scans.id, scan.id)),
      pgErrorCodes.checkViolation,
    );
  });

  it('lets one idempotency key create one scan', async () => {
    const key = unique('key');
    await addScan({ idempotencyKey: key });
    await expectSqlState(addScan({ idempotencyKey: key }), pgErrorCodes.uniqueViolation);
    // Scans without a key are never in each other's way.
    await addScan();
    await addScan();
  });

  it('stores merged issues with their engines, rule key and WCAG criteria', async () => {
    const scan = await addScan();
    await db()
      .insert(issues)
      .values({
        scanId: scan.id,
        issueKey: 'a1b2',
        title: 'Images must have alternative text',
        description: 'An img element has no alt attribute',
        rule: 'image-alt',
        ruleKey: '23a2a8',
        impact: 'critical',
        kind: 'violation',
        confidence: 'confirmed',
        wcag: ['1.1.1'],
        level: 'A',
        selector: 'img.logo',
        source: 'axe',
        engines: ['axe', 'pa11y'],
        rules: { axe: ['image-alt'], pa11y: ['WCAG2AA.Principle1.Guideline1_1.1_1_1.H37'] },
      });
    const rows = await db()
      .select()
      .from(issues)
      .where(sql`${issues.scanId} = ${scan.id} and '1.1.1' = any(${issues.wcag})`);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      engines: ['axe', 'pa11y'],
      rules: { axe: ['image-alt'] },
      html: '',
      helpUrl: '',
      findings: [],
      pageScanId: null,
    });
    // An issue belongs to a scan or to a page of an audit, never to neither.
    await expectSqlState(
      database.executeSql(
        `insert into issues (issue_key, title, description, rule, rule_key, impact, kind, confidence, selector, source, engines, rules)
         values ('k', 't', 'd', 'r', 'rk', 'minor', 'violation', 'likely', '', 'axe', '{axe}', '{}')`,
      ),
      pgErrorCodes.checkViolation,
    );
  });

  it('keeps a multi-page audit with its pages and per-engine results', async () => {
    const [audit] = await db()
      .insert(auditSessions)
      .values({ baseUrl: 'https://example.org/', domain: 'example.org' })
      .returning();
    expect(audit).toMatchObject({
      status: 'pending',
      totalPages: 0,
      completedPages: 0,
      totalIssues: 0,
      isPublic: false,
      overallScore: null,
    });
    const [page] = await db()
      .insert(pageScans)
      .values({ auditSessionId: audit!.id, position: 0, url: 'https://example.org/' })
      .returning();
    expect(page).toMatchObject({
      status: 'pending',
      totalIssues: 0,
      screenshots: [],
      engineErrors: {},
    });
    const [result] = await db()
      .insert(engineResults)
      .values({
        pageScanId: page!.id,
        engine: 'pa11y',
        rawData: { issues: [] },
        processingTime: 56,
      })
      .returning();
    expect(result).toMatchObject({
      issueCount: 0,
      errorCount: 0,
      warningCount: 0,
      noticeCount: 0,
      rawData: { issues: [] },
    });
    await expectSqlState(
      db().insert(engineResults).values({ pageScanId: page!.id, engine: 'pa11y' }),
      pgErrorCodes.uniqueViolation,
    );
  });

  it('deletes an audit with its pages, their results, issues and artifacts', async () => {
    const [audit] = await db()
      .insert(auditSessions)
      .values({ baseUrl: 'https://example.org/', domain: 'example.org' })
      .returning();
    const [page] = await db()
      .insert(pageScans)
      .values({ auditSessionId: audit!.id, position: 0, url: 'https://example.org/' })
      .returning();
    await db().insert(engineResults).values({ pageScanId: page!.id, engine: 'axe' });
    const bytes = Buffer.from('PK');
    await db().insert(artifacts).values({
      pageScanId: page!.id,
      kind: 'screenshot',
      mimeType: 'image/jpeg',
      byteSize: bytes.length,
      bytes,
    });

    await db().delete(auditSessions).where(eq(auditSessions.id, audit!.id));

    expect(
      await db().select().from(pageScans).where(eq(pageScans.auditSessionId, audit!.id)),
    ).toEqual([]);
    expect(
      await db().select().from(engineResults).where(eq(engineResults.pageScanId, page!.id)),
    ).toEqual([]);
    expect(await db().select().from(artifacts).where(eq(artifacts.pageScanId, page!.id))).toEqual(
      [],
    );
  });

  it('serves artifact bytes back unchanged', async () => {
    const scan = await addScan();
    const bytes = Buffer.from([0xff, 0xd8, 0xff, 0x00, 0x01, 0x02, 0xfe]);
    const [artifact] = await db()
      .insert(artifacts)
      .values({
        scanId: scan.id,
        kind: 'screenshot',
        mimeType: 'image/jpeg',
        byteSize: bytes.length,
        bytes,
      })
      .returning({ id: artifacts.id });
    const [stored] = await db().select().from(artifacts).where(eq(artifacts.id, artifact!.id));
    expect(Buffer.isBuffer(stored?.bytes)).toBe(true);
    expect(stored?.bytes.equals(bytes)).toBe(true);
    // The recorded size has to be the real one, so Content-Length can be trusted.
    await expectSqlState(
      db().insert(artifacts).values({
        scanId: scan.id,
        kind: 'archive',
        mimeType: 'application/zip',
        byteSize: 1,
        bytes,
      }),
      pgErrorCodes.checkViolation,
    );
  });

  it('gives subscriptions and add-ons the spec defaults', async () => {
    const user = await addUser();
    const [subscription] = await db()
      .insert(subscriptions)
      .values({ userId: user.id, domain: 'example.org', email: user.email })
      .returning();
    expect(subscription).toMatchObject({
      status: 'active',
      planType: 'compliance_shield',
      scanId: null,
    });
    const [addOn] = await db()
      .insert(addOns)
      .values({ userId: user.id, type: 'vpat-automated', domain: 'example.org', price: 19_900 })
      .returning();
    expect(addOn).toMatchObject({ status: 'active', quantity: 1, price: 19_900 });
    await expectSqlState(
      database.executeSql(`insert into subscriptions (domain) values ('example.org')`),
      pgErrorCodes.notNullViolation,
    );
  });

  it('lets one verified owner at a time hold a domain, with unverified claims beside it', async () => {
    const [first, second, third] = [await addUser(), await addUser(), await addUser()];
    const domain = `${unique('site')}.example`;
    const [added] = await db()
      .insert(domains)
      .values({ userId: first.id, domain, domainIndex: 1, monthlyPrice: 4900 })
      .returning();
    expect(added).toMatchObject({ status: 'trial', badgeActive: false, badgeSettings: {} });
    // Unverified claims of several accounts wait side by side (ADR 0007).
    const [claim] = await db()
      .insert(domains)
      .values({ userId: second.id, domain, domainIndex: 1, monthlyPrice: 4900 })
      .returning();
    await db().update(domains).set({ verifiedAt: new Date() }).where(eq(domains.id, added!.id));
    await expectSqlState(
      db().update(domains).set({ verifiedAt: new Date() }).where(eq(domains.id, claim!.id)),
      pgErrorCodes.uniqueViolation,
    );
    // Once the verified owner archives it, another claim may be verified.
    await db().update(domains).set({ status: 'archived' }).where(eq(domains.id, added!.id));
    await db().update(domains).set({ verifiedAt: new Date() }).where(eq(domains.id, claim!.id));
    await db()
      .insert(domains)
      .values({ userId: third.id, domain, domainIndex: 1, monthlyPrice: 4900 });
    await expectSqlState(
      database.executeSql(`update domains set status = 'paused' where id = $1`, [added!.id]),
      pgErrorCodes.checkViolation,
    );
  });

  it('keeps ownership periods with the domains table, and files complaints into them', async () => {
    const [alice, bob] = [await addUser(), await addUser()];
    const domain = `${unique('owned')}.example`;
    const periods = () =>
      db()
        .select()
        .from(domainOwnerships)
        .where(eq(domainOwnerships.domain, domain))
        .orderBy(domainOwnerships.verifiedFrom, domainOwnerships.id);
    const fileComplaint = async () => {
      const [row] = await db()
        .insert(complaints)
        .values({ domain, message: 'No labels', submitterEmail: 'v@example.net' })
        .returning();
      return row!;
    };
    const [a] = await db()
      .insert(domains)
      .values({ userId: alice.id, domain, domainIndex: 1, monthlyPrice: 4900 })
      .returning();
    expect(await periods()).toEqual([]);
    await db().update(domains).set({ verifiedAt: new Date() }).where(eq(domains.id, a!.id));
    const [alicePeriod] = await periods();
    expect(alicePeriod).toMatchObject({ userId: alice.id, verifiedUntil: null });
    expect((await fileComplaint()).ownershipId).toBe(alicePeriod!.id);

    // Archived: the period closes, and a complaint filed now waits for the next verified owner.
    await db().update(domains).set({ status: 'archived' }).where(eq(domains.id, a!.id));
    expect((await periods())[0]!.verifiedUntil).not.toBeNull();
    const waiting = await fileComplaint();
    expect(waiting.ownershipId).toBeNull();

    const [b] = await db()
      .insert(domains)
      .values({ userId: bob.id, domain, domainIndex: 1, monthlyPrice: 4900 })
      .returning();
    await db().update(domains).set({ verifiedAt: new Date() }).where(eq(domains.id, b!.id));
    const [, bobPeriod] = await periods();
    expect(bobPeriod).toMatchObject({ userId: bob.id, verifiedUntil: null });
    const [joined] = await db().select().from(complaints).where(eq(complaints.id, waiting.id));
    expect(joined!.ownershipId).toBe(bobPeriod!.id);
  });

  it('gives complaints the spec defaults', async () => {
    const [complaint] = await db()
      .insert(complaints)
      .values({
        domain: 'example.org',
        message: 'The form has no labels',
        submitterEmail: 'v@example.net',
      })
      .returning();
    expect(complaint).toMatchObject({
      type: 'general',
      status: 'new',
      priority: 'medium',
      conversation: [],
    });
    await expectSqlState(
      db()
        .update(complaints)
        .set({ priority: 'soon' as 'low' })
        .where(eq(complaints.id, complaint!.id)),
      pgErrorCodes.checkViolation,
    );
  });

  it('removes an account with what it owns and keeps the shared history', async () => {
    const user = await addUser();
    await db()
      .insert(sessions)
      .values({ idHash: unique('hash'), userId: user.id, csrfSecret: 's', expiresAt: new Date() });
    const scan = await addScan({ userId: user.id });
    await db()
      .insert(issues)
      .values({
        scanId: scan.id,
        issueKey: 'k',
        title: 't',
        description: 'd',
        rule: 'r',
        ruleKey: 'rk',
        impact: 'minor',
        kind: 'violation',
        confidence: 'likely',
        selector: '',
        source: 'ibm',
        engines: ['ibm'],
        rules: {},
      });
    const [subscription] = await db().insert(subscriptions).values({ userId: user.id }).returning();
    const domain = `${unique('gone')}.example`;
    await db().insert(domains).values({
      userId: user.id,
      domain,
      domainIndex: 1,
      monthlyPrice: 4900,
      subscriptionId: subscription!.id,
    });
    const [history] = await db()
      .insert(domainHistory)
      .values({
        domain,
        userId: user.id,
        action: 'added',
        trialUsed: true,
        subscriptionId: subscription!.id,
      })
      .returning();
    const [log] = await db()
      .insert(authLogs)
      .values({ email: user.email, event: 'login', success: true, userId: user.id })
      .returning();
    const [complaint] = await db()
      .insert(complaints)
      .values({ domain, message: 'm', submitterEmail: 'v@example.net', assignedTo: user.id })
      .returning();

    await db().delete(users).where(eq(users.id, user.id));

    expect(await db().select().from(sessions).where(eq(sessions.userId, user.id))).toEqual([]);
    expect(await db().select().from(scans).where(eq(scans.id, scan.id))).toEqual([]);
    expect(await db().select().from(issues).where(eq(issues.scanId, scan.id))).toEqual([]);
    expect(await db().select().from(domains).where(eq(domains.domain, domain))).toEqual([]);
    const [keptHistory] = await db()
      .select()
      .from(domainHistory)
      .where(eq(domainHistory.id, history!.id));
    expect(keptHistory).toMatchObject({ userId: null, subscriptionId: null, trialUsed: true });
    const [keptLog] = await db().select().from(authLogs).where(eq(authLogs.id, log!.id));
    expect(keptLog?.userId).toBeNull();
    const [keptComplaint] = await db()
      .select()
      .from(complaints)
      .where(eq(complaints.id, complaint!.id));
    expect(keptComplaint?.assignedTo).toBeNull();
  });

  // Last, so every table holds rows written by the tests above.
  it('reads back rows that match their drizzle-zod row schemas', async () => {
    const tables = [
      users,
      sessions,
      authLogs,
      outboxEmails,
      scans,
      issues,
      auditSessions,
      pageScans,
      engineResults,
      artifacts,
      subscriptions,
      addOns,
      domains,
      domainHistory,
      complaints,
    ] as const;
    for (const table of tables) {
      const schema = createSelectSchema(table);
      const stored = await db().select().from(table);
      expect(stored.length, `rows in ${getTableName(table)}`).toBeGreaterThan(0);
      for (const row of stored) schema.parse(row);
    }
  });
});
