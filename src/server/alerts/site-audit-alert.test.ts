import { eq } from 'drizzle-orm';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestPglite } from '../../../test/support/db.js';
import { issueFingerprint, type Impact } from '#contract/index.js';
import type { Database } from '#db/client.js';
import {
  auditSessions,
  domains,
  issues,
  outboxEmails,
  pageScans,
  scans,
  users,
} from '#db/schema/index.js';
import { createMailer, type Mailer } from '#email/mailer.js';
import { sendAuditAlert, sendScanAlert, sendWeeklyDigests, type AlertDeps } from './service.js';
import { UnsubscribeSigner } from './unsubscribe.js';

/**
 * A finished site audit's alert names each page and its new critical or serious issues (from the
 * page's stored changes), and the weekly digest celebrates the fixes of the audits since the
 * previous digest, once.
 */

let database: Database;
let mailer: Mailer;
let deps: AlertDeps;
let userId: string;
const domain = 'audited-site.test';
const email = 'owner@audited-site.test';
const at = (day: number) => new Date(Date.UTC(2026, 10, day, 9));

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
    publicUrl: 'https://conformly.example',
    signer: new UnsubscribeSigner(database.db, undefined),
  };
  const [user] = await database.db
    .insert(users)
    .values({ email, name: 'Olga', lastDigestSentAt: at(9) })
    .returning({ id: users.id });
  userId = user!.id;
  await database.db.insert(domains).values({
    userId,
    domain,
    status: 'active',
    domainIndex: 1,
    monthlyPrice: 4900,
    verifiedAt: at(1),
    verificationMethod: 'dns',
  });
}, 60_000);
afterAll(async () => {
  await mailer?.close();
  await database?.close();
});

const issue = (
  scanId: string,
  values: { ruleKey: string; impact: Impact; selector: string; html: string; title: string },
) => ({
  scanId,
  issueKey: `${values.ruleKey}:${values.selector}`,
  title: values.title,
  description: values.title,
  rule: values.ruleKey,
  ruleKey: values.ruleKey,
  impact: values.impact,
  kind: 'violation' as const,
  confidence: 'confirmed' as const,
  selector: values.selector,
  html: values.html,
  source: 'axe' as const,
  engines: ['axe' as const],
  rules: { axe: [values.ruleKey] },
  helpUrl: `https://dequeuniversity.com/rules/axe/4.10/${values.ruleKey}`,
});

/** A finished site audit of one page whose stored changes list `fresh` as new and `fixed` fixed. */
async function audit(
  day: number,
  page: { url: string; found: Parameters<typeof issue>[1][]; fresh: string[]; fixed: number },
) {
  const [domainRow] = await database.db
    .select({ id: domains.id })
    .from(domains)
    .where(eq(domains.domain, domain));
  const [row] = await database.db
    .insert(auditSessions)
    .values({
      userId,
      baseUrl: `https://${domain}/`,
      domain,
      origin: 'monitoring',
      domainId: domainRow!.id,
      trigger: 'schedule',
      status: 'completed',
      totalPages: 1,
      completedPages: 1,
      completedAt: at(day),
    })
    .returning({ id: auditSessions.id });
  const [scan] = await database.db
    .insert(scans)
    .values({
      userId,
      url: page.url,
      domain,
      origin: 'monitoring',
      status: 'completed',
      accessibilityScore: 70,
      totalIssues: page.found.length,
      completedAt: at(day),
    })
    .returning({ id: scans.id });
  if (page.found.length > 0) {
    await database.db.insert(issues).values(page.found.map((found) => issue(scan!.id, found)));
  }
  await database.db.insert(pageScans).values({
    id: scan!.id,
    auditSessionId: row!.id,
    position: 1,
    url: page.url,
    status: 'completed',
    accessibilityScore: 70,
    totalIssues: page.found.length,
    completedAt: at(day),
    changes: {
      new: page.fresh,
      fixed: Array.from({ length: page.fixed }, (_, i) => `fixed-${day}-${i}`),
      open: [],
      scannerNew: [],
    },
  });
  return { auditId: row!.id, scanId: scan!.id };
}

const outbox = () => database.db.select().from(outboxEmails).where(eq(outboxEmails.to, email));

const missingAlt = {
  ruleKey: 'image-alt',
  impact: 'critical' as const,
  selector: '#hero > img',
  html: '<img src="/hero.jpg">',
  title: 'Images must have alternative text',
};
const lowContrast = {
  ruleKey: 'color-contrast',
  impact: 'serious' as const,
  selector: '.footer a',
  html: '<a href="/terms">Terms</a>',
  title: 'Elements must meet minimum color contrast',
};
const emptyHeading = {
  ruleKey: 'empty-heading',
  impact: 'minor' as const,
  selector: 'h3',
  html: '<h3></h3>',
  title: 'Headings should not be empty',
};

describe('a site audit alert', () => {
  it('names the page and only its new critical or serious issues, once', async () => {
    // Audit on day 8, before the last digest: 3 fixes already told.
    await audit(8, { url: `https://${domain}/`, found: [], fresh: [], fixed: 3 });
    const { auditId, scanId } = await audit(10, {
      url: `https://${domain}/pricing`,
      found: [missingAlt, lowContrast, emptyHeading],
      // The contrast issue was there before; the heading is new but minor.
      fresh: [issueFingerprint(missingAlt), issueFingerprint(emptyHeading)],
      fixed: 2,
    });

    expect(await sendAuditAlert(deps, auditId)).toEqual({ sent: true, pages: 1, newIssues: 1 });
    const [sent] = await outbox();
    expect(sent!.subject).toBe(`New accessibility issues on ${domain}`);
    expect(sent!.text).toContain(`https://${domain}/pricing:`);
    expect(sent!.text).toContain('critical: Images must have alternative text (#hero > img)');
    expect(sent!.text).not.toContain('color contrast');
    expect(sent!.text).not.toContain('Headings should not be empty');
    expect(sent!.text).toMatch(/Standing now: 70\/100 · Fair, over 1 page\./);

    expect(await sendAuditAlert(deps, auditId)).toEqual({ sent: false, reason: 'already sent' });
    // The page's own scan does not alert on its own: the audit did.
    expect(await sendScanAlert(deps, scanId)).toMatchObject({ sent: false });
    expect(await outbox()).toHaveLength(1);
  });

  it('tells nothing for an audit without new critical or serious issues', async () => {
    const { auditId } = await audit(11, {
      url: `https://${domain}/about`,
      found: [lowContrast],
      fresh: [],
      fixed: 0,
    });
    expect(await sendAuditAlert(deps, auditId)).toEqual({
      sent: false,
      reason: 'no new critical or serious issue',
    });
  });
});

describe('the weekly digest', () => {
  it('celebrates the fixes of the audits since the last digest, and not again the week after', async () => {
    await sendWeeklyDigests(deps, at(16));
    const digest = (await outbox()).find((row) => row.subject.includes('weekly'))!;
    // Day 10's 2 fixes; day 8's 3 were before the last digest (day 9).
    expect(digest.text).toContain(
      `Well done: 2 issues were fixed on ${domain} since the last digest.`,
    );
    expect(digest.text).toContain(`- ${domain}: score 70 (1 page)`);

    await sendWeeklyDigests(deps, at(23));
    const digests = (await outbox()).filter((row) => row.subject.includes('weekly'));
    expect(digests).toHaveLength(2);
    expect(digests.find((row) => row.id !== digest.id)!.text).not.toContain('Well done');
  });
});
