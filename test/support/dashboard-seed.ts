import type { Impact, IssueSummary } from '#contract/index.js';
import type { AppDb } from '#db/client.js';
import { domains, issues, scans, users } from '#db/schema/index.js';
import { setBillingAccount } from './billing-account.js';

/**
 * Scans with known scores and issues, written straight to the database, for the dashboard's
 * tests, its end-to-end test and its benchmark: what a monitored account accumulates over weeks
 * without running Chromium for every scan. Rows are what the scan worker stores (storeResult):
 * a completed scan with its score and issue count, and one issue row per element.
 */

export interface SeedIssue {
  /** The stable issue key (the same problem on the same element keeps it across scans). */
  key: string;
  rule: string;
  impact: Impact;
  title?: string;
}

export interface SeedScan {
  url: string;
  completedAt: Date;
  score: number;
  issues: SeedIssue[];
}

export async function seedUser(
  db: AppDb,
  values: { email: string; subscriptionStatus?: string },
): Promise<string> {
  const [row] = await db
    .insert(users)
    .values({
      email: values.email,
      name: 'Dana Dashboard',
      emailVerified: true,
    })
    .returning({ id: users.id });
  await setBillingAccount(db, row!.id, {
    subscriptionStatus: values.subscriptionStatus ?? 'active',
  });
  return row!.id;
}

export async function seedDomain(
  db: AppDb,
  userId: string,
  values: {
    domain: string;
    index: number;
    status?: 'active' | 'trial' | 'grace_period' | 'expired' | 'archived';
    createdAt?: Date;
    verified?: boolean;
    /** Where its site audits start (the homepage of a fixture site). */
    startUrl?: string;
  },
): Promise<string> {
  const createdAt = values.createdAt ?? new Date();
  const [row] = await db
    .insert(domains)
    .values({
      userId,
      domain: values.domain,
      status: values.status ?? 'active',
      domainIndex: values.index,
      monthlyPrice: 4900,
      monitoringSince: createdAt,
      currentPeriodEnd: new Date(createdAt.getTime() + 30 * 86_400_000),
      createdAt,
      ...(values.verified ? { verifiedAt: createdAt, verificationMethod: 'dns' as const } : {}),
      ...(values.startUrl ? { startUrl: values.startUrl } : {}),
    })
    .returning({ id: domains.id });
  return row!.id;
}

function summaryOf(list: SeedIssue[]): IssueSummary {
  const violations = { critical: 0, serious: 0, moderate: 0, minor: 0 };
  for (const issue of list) violations[issue.impact] += 1;
  return {
    violations,
    totalViolations: list.length,
    needsReview: 0,
    bestPractice: 0,
    byEngine: { axe: list.length, pa11y: 0, ibm: 0 },
    corroborated: 0,
  };
}

/**
 * Writes completed scans of `domain` with their issues; returns their ids in the given order.
 * Each carries the summary the worker writes (violations by impact), unless `summary` is false:
 * a scan stored without one, whose counts come from its issue rows.
 */
export async function seedScans(
  db: AppDb,
  userId: string,
  domain: string,
  list: SeedScan[],
  options: { summary?: boolean } = {},
): Promise<string[]> {
  const ids: string[] = [];
  const chunk = 200;
  for (let start = 0; start < list.length; start += chunk) {
    const part = list.slice(start, start + chunk);
    const rows = await db
      .insert(scans)
      .values(
        part.map((scan) => ({
          userId,
          url: scan.url,
          domain,
          status: 'completed' as const,
          stage: 'complete' as const,
          overallProgress: 100,
          accessibilityScore: scan.score,
          totalIssues: scan.issues.length,
          summary: options.summary === false ? null : summaryOf(scan.issues),
          createdAt: new Date(scan.completedAt.getTime() - 60_000),
          completedAt: scan.completedAt,
        })),
      )
      .returning({ id: scans.id });
    const issueRows = rows.flatMap((row, i) =>
      part[i]!.issues.map((issue) => ({
        scanId: row.id,
        issueKey: issue.key,
        title: issue.title ?? `Rule ${issue.rule} fails`,
        description: `The element breaks ${issue.rule}.`,
        rule: issue.rule,
        ruleKey: issue.rule,
        impact: issue.impact,
        kind: 'violation' as const,
        confidence: 'confirmed' as const,
        selector: `#${issue.key}`,
        source: 'axe' as const,
        engines: ['axe' as const],
        rules: { axe: [issue.rule] },
        helpUrl: `https://dequeuniversity.com/rules/axe/4.10/${issue.rule}`,
      })),
    );
    for (let i = 0; i < issueRows.length; i += 1000) {
      await db.insert(issues).values(issueRows.slice(i, i + 1000));
    }
    ids.push(...rows.map((row) => row.id));
  }
  return ids;
}
