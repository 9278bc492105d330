import {
  issueFingerprint,
  notificationLabels,
  trendOf,
  type NotificationKind,
  type UnsubscribePreview,
} from '#contract/index.js';
import { issueTitle } from '#contract/rule-guidance/index.js';
import type { AppDb } from '#db/client.js';
import * as domainStore from '#db/stores/domains.js';
import * as scanStore from '#db/stores/scans.js';
import { readSiteStanding, readSiteStandings } from '#db/stores/site-standing.js';
import { formatScore } from '#contract/vocabulary.js';
import { standingCoverage } from '#contract/site-standing.js';
import {
  paymentFailedEmail,
  scanAlertEmail,
  siteAuditAlertEmail,
  type AuditAlertPage,
  trialEndingEmail,
  weeklyDigestEmail,
  type DigestDomain,
} from '#email/alert-messages.js';
import type { EmailMessage, Mailer } from '#email/mailer.js';
import { InvalidError } from '../http-errors.js';
import { notificationSettingsOf, recordDigestSent, turnOffNotification } from '../users/service.js';
import * as repo from './repo.js';
import { unsubscribeUrls, type UnsubscribeSigner } from './unsubscribe.js';

/**
 * E-mail alerts to owners, through the outbox, as each owner's notification preferences allow:
 * after a monitoring rescan (score down by 5 or more against the previous scan of that page, or a
 * new critical or serious issue), a weekly digest, a free month ending in 7 days, and a month
 * that could not be paid. Each e-mail carries the event's key, so a job that runs again (a retry,
 * two workers) stores it once (Mailer.sendOnce).
 */

export interface AlertDeps {
  db: AppDb;
  mailer: Mailer;
  publicUrl: string;
  signer: UnsubscribeSigner;
}

/** Spec dashboard-area §4: a change of more than 5 points is a trend; an alert takes 5 or more. */
export const scoreDropThreshold = 5;
const alertImpacts = new Set(['critical', 'serious']);

const dayMs = 86_400_000;
const longDate = new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeZone: 'UTC' });

async function unsubscribeFor(deps: AlertDeps, userId: string, kind: NotificationKind) {
  const token = await deps.signer.sign({ userId, kind });
  return {
    ...unsubscribeUrls(deps.publicUrl, token),
    what: notificationLabels[kind].toLowerCase(),
  };
}

async function recipient(deps: AlertDeps, userId: string, kind: NotificationKind) {
  const [found] = await repo.findRecipients(deps.db, [userId]);
  if (!found || !notificationSettingsOf(found.notificationPreferences)[kind]) return undefined;
  return found;
}

export type ScanAlertOutcome =
  { sent: true; newIssues: number; drop: number } | { sent: false; reason: string };

/**
 * After a scan ended: e-mails its owner when it was a monitoring rescan whose page scored 5 or
 * more below its previous scan, or found a critical or serious issue the previous scan did not
 * (issues are followed across scans by their stable key). A scan someone started by hand, a
 * domain no longer monitored by the scan's owner, a first scan of a page and an owner who turned
 * these alerts off get nothing.
 */
export async function sendScanAlert(deps: AlertDeps, scanId: string): Promise<ScanAlertOutcome> {
  const scan = await scanStore.findScanOutcome(deps.db, scanId);
  if (!scan || scan.status !== 'completed' || !scan.completedAt || !scan.userId) {
    return { sent: false, reason: 'not a completed scan of an account' };
  }
  if (scan.origin !== 'monitoring') return { sent: false, reason: 'not a monitoring scan' };
  if (await repo.isSiteAuditPage(deps.db, scan.id)) {
    return { sent: false, reason: 'a page of a site audit, which alerts as a whole' };
  }
  const monitoring = await domainStore.findOwnMonitored(deps.db, scan.userId, scan.domain);
  if (!monitoring) return { sent: false, reason: 'domain not monitored' };
  const owner = await recipient(deps, scan.userId, 'scanAlerts');
  if (!owner) return { sent: false, reason: 'owner opted out' };
  const compared = await scanStore.issuesNewSincePreviousPageScan(deps.db, {
    ...scan,
    userId: scan.userId,
    completedAt: scan.completedAt,
  });
  if (!compared) return { sent: false, reason: 'first scan of the page' };
  const { previous } = compared;
  const newIssues = compared.issues.filter(
    (issue) => issue.kind === 'violation' && alertImpacts.has(issue.impact),
  );
  const drop =
    scan.accessibilityScore !== null && previous.accessibilityScore !== null
      ? previous.accessibilityScore - scan.accessibilityScore
      : 0;
  if (drop < scoreDropThreshold && newIssues.length === 0) {
    return { sent: false, reason: 'nothing worse than before' };
  }
  const published = await domainStore.findPublished(deps.db, scan.domain);
  const stored = await deps.mailer.sendOnce(
    scanAlertEmail({
      to: owner.email,
      name: owner.name,
      domain: scan.domain,
      url: scan.url,
      score: scan.accessibilityScore,
      previousScore: previous.accessibilityScore,
      newIssues: newIssues.map((issue) => ({
        impact: issue.impact,
        title: issueTitle(issue),
        selector: issue.selector,
      })),
      reportUrl: `${deps.publicUrl}/report/${encodeURIComponent(scan.id)}`,
      statusPageUrl: published
        ? `${deps.publicUrl}/status/${encodeURIComponent(scan.domain)}`
        : undefined,
      unsubscribe: await unsubscribeFor(deps, owner.id, 'scanAlerts'),
      dedupeKey: `scan-alert:${scan.id}`,
    }),
  );
  return stored
    ? { sent: true, newIssues: newIssues.length, drop }
    : { sent: false, reason: 'already sent' };
}

export type AuditAlertOutcome =
  { sent: true; pages: number; newIssues: number } | { sent: false; reason: string };

/** A standing in an e-mail's words: "71/100 over 12 pages", "no score: no page (3 failed)". */
function standingWords(standing: Awaited<ReturnType<typeof readSiteStanding>>): string {
  const coverage = standingCoverage(standing);
  return standing.score === null
    ? `no score (${coverage})`
    : `${formatScore(standing.score)} · ${standing.label}, over ${coverage}`;
}

/**
 * After a monitoring site audit finished: e-mails its owner the pages where it found critical or
 * serious issues the previous audit did not have on that page (page_scans.changes.new, written
 * when the page was compared), each issue named. Issues newly detected because the scanner
 * changed, not the site, are not alerts. Once per audit.
 */
export async function sendAuditAlert(deps: AlertDeps, auditId: string): Promise<AuditAlertOutcome> {
  const audit = await repo.findSiteAudit(deps.db, auditId);
  if (!audit || !audit.userId || !['completed', 'failed'].includes(audit.status)) {
    return { sent: false, reason: 'not a finished site audit of an account' };
  }
  const monitoring = await domainStore.findOwnMonitored(deps.db, audit.userId, audit.domain);
  if (!monitoring) return { sent: false, reason: 'domain not monitored' };
  const owner = await recipient(deps, audit.userId, 'scanAlerts');
  if (!owner) return { sent: false, reason: 'owner opted out' };

  const pages: AuditAlertPage[] = [];
  for (const page of await repo.listPagesWithNewIssues(deps.db, audit.id)) {
    const wanted = new Set(page.newFingerprints);
    const found = (await scanStore.listIssues(deps.db, page.issuesOf)).filter(
      (issue) =>
        issue.kind === 'violation' &&
        alertImpacts.has(issue.impact) &&
        wanted.has(
          issueFingerprint({ ruleKey: issue.ruleKey, selector: issue.selector, html: issue.html }),
        ),
    );
    if (found.length > 0) {
      pages.push({
        url: page.url,
        issues: found.map((issue) => ({
          impact: issue.impact,
          title: issueTitle(issue),
          selector: issue.selector,
        })),
      });
    }
  }
  if (pages.length === 0) return { sent: false, reason: 'no new critical or serious issue' };
  const standing = await readSiteStanding(deps.db, audit.userId, audit.domain);
  const stored = await deps.mailer.sendOnce(
    siteAuditAlertEmail({
      to: owner.email,
      name: owner.name,
      domain: audit.domain,
      standing: standingWords(standing),
      pages,
      auditUrl: `${deps.publicUrl}/app/dashboard/domains/${encodeURIComponent(audit.domain)}`,
      unsubscribe: await unsubscribeFor(deps, owner.id, 'scanAlerts'),
      dedupeKey: `audit-alert:${audit.id}`,
    }),
  );
  const newIssues = pages.reduce((sum, page) => sum + page.issues.length, 0);
  return stored
    ? { sent: true, pages: pages.length, newIssues }
    : { sent: false, reason: 'already sent' };
}

/** Monday 00:00 UTC of the week `now` is in: the digest's once-per-week key. */
export function weekOf(now: Date): string {
  const day = (now.getUTCDay() + 6) % 7;
  const monday = new Date(
    Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - day),
  );
  return monday.toISOString().slice(0, 10);
}

/**
 * The weekly digest: one e-mail per owner who wants it, listing each monitored domain with its
 * standing (docs/scoring.md §6) and what it covered, and the issues its site audits fixed since
 * the previous digest (each audit's fixes told once). Once per owner and week, however often
 * the job runs.
 */
export async function sendWeeklyDigests(deps: AlertDeps, now: Date): Promise<{ sent: number }> {
  const monitored = await domainStore.listMonitoredDomains(deps.db);
  const byOwner = new Map<string, typeof monitored>();
  for (const row of monitored) byOwner.set(row.userId, [...(byOwner.get(row.userId) ?? []), row]);
  const owners = await repo.findRecipients(deps.db, [...byOwner.keys()]);
  const week = weekOf(now);
  let sent = 0;
  for (const owner of owners) {
    if (!notificationSettingsOf(owner.notificationPreferences).weeklyDigest) continue;
    const rows = byOwner.get(owner.id) ?? [];
    const [standings, fixed] = await Promise.all([
      readSiteStandings(
        deps.db,
        rows.map((row) => ({ userId: owner.id, domain: row.domain })),
      ),
      // The audits since the last digest: each audit's fixes are celebrated once.
      repo.countFixedSince(deps.db, owner.id, owner.lastDigestSentAt, now),
    ]);
    const domains: DigestDomain[] = [];
    for (const row of rows) {
      const standing = standings.get(row.domain)!;
      const [latest, previous] = await scanStore.listOwnerScans(deps.db, row.domain, owner.id, 2);
      const previousScore =
        standing.auditId === null ? (previous?.accessibilityScore ?? null) : null;
      domains.push({
        domain: row.domain,
        status: row.status,
        score: standing.score,
        previousScore,
        trend: trendOf(standing.score, previousScore),
        issues: standing.issues.total,
        lastScan: standing.date
          ? longDate.format(new Date(standing.date))
          : latest?.completedAt
            ? longDate.format(latest.completedAt)
            : null,
        standing: standing.state,
        coverage: standingCoverage(standing),
        fixed: fixed.get(row.domain) ?? 0,
      });
    }
    const stored = await deps.mailer.sendOnce(
      weeklyDigestEmail({
        to: owner.email,
        name: owner.name,
        domains,
        dashboardUrl: `${deps.publicUrl}/app/dashboard`,
        unsubscribe: await unsubscribeFor(deps, owner.id, 'weeklyDigest'),
        dedupeKey: `digest:${owner.id}:${week}`,
      }),
    );
    if (stored) {
      sent += 1;
      await recordDigestSent(deps.db, owner.id, now);
    }
  }
  return { sent };
}

/** Grace periods this old or newer still get their notice (a run missed for a day or two). */
const graceNoticeDays = 3;
const trialNoticeDays = 7;

/**
 * The plan's notices, after each lifecycle run: a free month ending within 7 days (once per
 * domain and free month), and a month that could not be paid, which started the 30-day grace
 * period (once per history entry: a refused charge, an unconfirmed one, or no card on file).
 */
export async function sendLifecycleNotices(
  deps: AlertDeps,
  now: Date,
): Promise<{ trialEnding: number; paymentFailed: number }> {
  const billingUrl = `${deps.publicUrl}/app/dashboard/settings`;
  const send = async (userId: string, build: (owner: repo.Recipient) => Promise<EmailMessage>) => {
    const owner = await recipient(deps, userId, 'billing');
    return owner ? deps.mailer.sendOnce(await build(owner)) : false;
  };
  let trialEnding = 0;
  const trials = await domainStore.listTrialsEndingBetween(
    deps.db,
    now,
    new Date(now.getTime() + trialNoticeDays * dayMs),
  );
  for (const trial of trials) {
    const sent = await send(trial.userId, async (owner) =>
      trialEndingEmail({
        to: owner.email,
        name: owner.name,
        domain: trial.domain,
        endsOn: longDate.format(trial.trialEndsAt!),
        cardAdded: trial.cardAdded,
        monthlyPrice: (trial.monthlyPrice / 100).toFixed(0),
        billingUrl,
        unsubscribe: await unsubscribeFor(deps, owner.id, 'billing'),
        dedupeKey: `trial-ending:${trial.id}:${trial.trialEndsAt!.toISOString()}`,
      }),
    );
    if (sent) trialEnding += 1;
  }
  let paymentFailed = 0;
  const graces = await domainStore.listGraceStartsSince(
    deps.db,
    new Date(now.getTime() - graceNoticeDays * dayMs),
  );
  for (const grace of graces) {
    if (!grace.userId) continue;
    const reason = String(grace.details?.reason ?? '');
    const charged =
      grace.action === 'payment_failed' || reason === 'payment failed' || reason.includes('charge');
    const sent = await send(grace.userId, async (owner) =>
      paymentFailedEmail({
        to: owner.email,
        name: owner.name,
        domain: grace.domain,
        charged,
        graceEndsOn: grace.gracePeriodEndsAt ? longDate.format(grace.gracePeriodEndsAt) : '-',
        billingUrl,
        unsubscribe: await unsubscribeFor(deps, owner.id, 'billing'),
        dedupeKey: `grace:${grace.id}`,
      }),
    );
    if (sent) paymentFailed += 1;
  }
  return { trialEnding, paymentFailed };
}

export const invalidUnsubscribeLink = 'This unsubscribe link is not valid.';

/** A forwarded link shows whose e-mails it stops without spelling the address out. */
function maskEmail(email: string): string {
  const [local = '', host = ''] = email.split('@');
  return `${local.slice(0, 1)}${'*'.repeat(Math.max(1, Math.min(local.length - 1, 6)))}@${host}`;
}

async function targetOf(deps: Pick<AlertDeps, 'db' | 'signer'>, token: string) {
  const target = await deps.signer.verify(token);
  const [owner] = target ? await repo.findRecipients(deps.db, [target.userId]) : [];
  if (!target || !owner) throw new InvalidError(invalidUnsubscribeLink);
  return { target, owner };
}

/** What an unsubscribe link would turn off, for its confirm page. */
export async function previewUnsubscribe(
  deps: Pick<AlertDeps, 'db' | 'signer'>,
  token: string,
): Promise<UnsubscribePreview> {
  const { target, owner } = await targetOf(deps, token);
  return {
    kind: target.kind,
    label: notificationLabels[target.kind],
    email: maskEmail(owner.email),
    subscribed: notificationSettingsOf(owner.notificationPreferences)[target.kind],
  };
}

/** Turns off the kind of e-mail the link names; doing it twice changes nothing. */
export async function unsubscribe(
  deps: Pick<AlertDeps, 'db' | 'signer'>,
  token: string,
): Promise<UnsubscribePreview> {
  const { target } = await targetOf(deps, token);
  await turnOffNotification(deps, target.userId, target.kind);
  return previewUnsubscribe(deps, token);
}
