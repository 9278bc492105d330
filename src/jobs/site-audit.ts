import type PgBoss from 'pg-boss';
import { summarizeScan, type AiEndpoint } from '#ai/summary.js';
import type { EngineId } from '#contract/index.js';
import type { AppDb } from '#db/client.js';
import { markPageFailed, markPageRunning, storePageResult } from '#db/stores/audits.js';
import { markFailed, markRetrying, markRunning, storeResult } from '#db/stores/scans.js';
import {
  claimNextPages,
  countUnfinishedPages,
  findPreviousPage,
  findSiteAuditPage,
  findSiteAuditPlan,
  finishSiteAudit,
  listIssueKeys,
  notePageRendering,
  saveSiteAuditPages,
  savePageChanges,
  settlePageIdentity,
  storeReusedPage,
} from '#db/stores/site-audits.js';
import { countEngineRaw, type PagePool } from '#scanner';
import { sendJob } from './boss.js';
import type { SiteAuditPagePayload, SiteAuditPayload } from './queues.js';
import { failureReason, isPermanent } from './scan-page.js';
import type { PageSeen, SiteAuditTools } from './site-audit-tools.js';

/**
 * A monitored domain's site audit on the queue (issue 30). The `site-audit` job chooses the pages
 * (discovery from the start address, the owner's pins and excludes, the page budget) and sends the
 * first of them; each page is its own `site-audit-page` job. Politeness and fairness: at most two
 * pages of one audit are sent and not yet ended (one when robots.txt asks for a Crawl-delay, each
 * next page then waiting that long), and a page that ends sends the next. So pg-boss's queue, first
 * in first out, interleaves the pages of every running audit: a 500-page audit holds two places in
 * the line, never all of them, and another domain's pages are taken in between.
 *
 * A page that fails is recorded with its reason and the audit goes on. A page whose final address
 * is one another page of the audit already stands for ends as "Same page as ...", counted once.
 * A page that renders exactly as the previous audit's page of the same identity, scanned by the
 * same engine versions, reuses that page's findings without running the engines. The page that
 * ends last finishes the audit and sends its alert job.
 */

/** Pages of one audit sent and not yet ended, without and with a robots.txt Crawl-delay. */
export const pagesAtOnce = 2;
export const pagesAtOnceWithCrawlDelay = 1;

export interface SiteAuditHandlerOptions {
  db: AppDb;
  boss: PgBoss;
  pool: PagePool;
  tools: SiteAuditTools;
  /** MONITOR_MAX_PAGES: pages one audit covers at most. */
  maxPages: number;
  allowPrivateTargets: boolean;
  /** ALLOWED_PRIVATE_ORIGINS: private origins allowed one by one. */
  allowedPrivateOrigins?: string[];
  /** Whole-page budget handed to the scanner (its default when absent). */
  scanTimeoutMs?: number;
  /** Engines to run; every engine of the scanner when absent. */
  engines?: EngineId[];
  ai?: AiEndpoint;
  onError?: (error: unknown) => void;
}

export interface SiteAuditOutcome {
  status: 'started' | 'finished' | 'skipped';
  pages?: number;
}

export interface SiteAuditPageOutcome {
  status: 'completed' | 'reused' | 'duplicate' | 'failed' | 'skipped';
  reason?: string;
}

const crawlDelayOf = (discovery: unknown): number | null => {
  const value = (discovery as { crawlDelaySeconds?: unknown } | null)?.crawlDelaySeconds;
  return typeof value === 'number' && value > 0 ? value : null;
};

const sameVersions = (a: unknown, b: Partial<Record<EngineId, string>>) => {
  const left = (a ?? {}) as Record<string, string>;
  const keys = new Set([...Object.keys(left), ...Object.keys(b)]);
  for (const key of keys) if (left[key] !== b[key as EngineId]) return false;
  return true;
};

/**
 * Sends the audit's next pages within its limit; when none is left to send and every page has
 * ended, finishes the audit (once, whoever gets there first) and sends its alert job.
 */
export async function continueSiteAudit(
  options: Pick<SiteAuditHandlerOptions, 'db' | 'boss' | 'pool'>,
  auditSessionId: string,
  discovery: unknown,
): Promise<{ sent: number; finished: boolean }> {
  const { db, boss } = options;
  const delay = crawlDelayOf(discovery);
  const ids = await claimNextPages(
    db,
    auditSessionId,
    delay ? pagesAtOnceWithCrawlDelay : pagesAtOnce,
  );
  for (const pageScanId of ids) {
    await sendJob(
      boss,
      'site-audit-page',
      { pageScanId },
      delay ? { startAfter: new Date(Date.now() + delay * 1000) } : {},
    );
  }
  if (ids.length > 0 || (await countUnfinishedPages(db, auditSessionId)) > 0) {
    return { sent: ids.length, finished: false };
  }
  const finished = await finishSiteAudit(db, auditSessionId, {
    browserStats: options.pool.stats(),
    unfinishedReason: 'The page was not scanned.',
  });
  if (finished) await sendJob(boss, 'audit-alerts', { auditSessionId });
  return { sent: 0, finished };
}

/** The `site-audit` job: chooses the pages once, then sends the first ones. */
export function createSiteAuditHandler(options: SiteAuditHandlerOptions) {
  const { db, pool, tools } = options;
  return async function handleSiteAudit(payload: SiteAuditPayload): Promise<SiteAuditOutcome> {
    const { auditSessionId } = payload;
    const plan = await findSiteAuditPlan(db, auditSessionId);
    if (!plan || !['pending', 'running'].includes(plan.status)) return { status: 'skipped' };

    let discovery = plan.discovery;
    if (!discovery) {
      let chosen: { url: string; identity: string }[];
      try {
        const choice = await tools.chooseSitePages(pool, plan.startUrl, {
          budget: options.maxPages,
          pins: plan.pins,
          excludes: plan.excludes,
          allowPrivateNetwork: options.allowPrivateTargets,
          allowedPrivateOrigins: options.allowedPrivateOrigins,
        });
        chosen = choice.pages;
        discovery = { ...choice.discovery };
      } catch (error) {
        if (!isPermanent(error)) options.onError?.(error);
        // Nothing could be discovered (the start address refused or unreachable): the audit
        // covers the start address alone, whose scan then records why it failed.
        chosen = [{ url: plan.startUrl, identity: tools.pageIdentity(plan.startUrl) }];
        discovery = {
          startUrl: plan.startUrl,
          error: error instanceof Error ? error.message : String(error),
        };
      }
      await saveSiteAuditPages(db, auditSessionId, chosen, discovery);
      // A retried job may find another attempt's pages: keep those and the way they were chosen.
      discovery = (await findSiteAuditPlan(db, auditSessionId))?.discovery ?? discovery;
    }
    const next = await continueSiteAudit(options, auditSessionId, discovery);
    return { status: next.finished ? 'finished' : 'started', pages: next.sent };
  };
}

/** The `site-audit-page` job: scans one page, or reuses its previous findings, then moves on. */
export function createSiteAuditPageHandler(options: SiteAuditHandlerOptions) {
  const { db, pool, tools } = options;
  const onError = options.onError ?? (() => undefined);

  return async function handleSiteAuditPage(
    payload: SiteAuditPagePayload,
    job: PgBoss.JobWithMetadata<unknown>,
  ): Promise<SiteAuditPageOutcome> {
    const { pageScanId } = payload;
    const page = await findSiteAuditPage(db, pageScanId);
    if (!page) return { status: 'skipped' };
    if (page.auditStatus !== 'running') return { status: 'skipped' };
    if (!(await markPageRunning(db, pageScanId))) {
      // A retry whose page an earlier attempt ended (its worker died before moving on).
      await continueSiteAudit(options, page.auditSessionId, page.discovery);
      return { status: 'skipped' };
    }
    await markRunning(db, pageScanId, job.id, job.retryCount);

    const versions = tools.engineVersionsOf(options.engines);
    let duplicateOf: string | undefined;
    let previous: Awaited<ReturnType<typeof findPreviousPage>>;
    const reuseWhen = async (seen: PageSeen) => {
      duplicateOf = await settlePageIdentity(
        db,
        pageScanId,
        page.auditSessionId,
        tools.pageIdentity(seen.finalUrl),
      );
      if (duplicateOf) return true;
      if (!page.previousAuditId) return false;
      previous = await findPreviousPage(
        db,
        page.previousAuditId,
        tools.pageIdentity(seen.finalUrl),
      );
      return (
        previous !== undefined &&
        previous.renderHash === seen.renderHash &&
        sameVersions(previous.engineVersions, versions)
      );
    };

    let outcome: SiteAuditPageOutcome;
    try {
      const scanned = await tools.scanPageUnlessUnchanged(pool, page.url, {
        scanId: pageScanId,
        allowPrivateNetwork: options.allowPrivateTargets,
        allowedPrivateOrigins: options.allowedPrivateOrigins,
        reuseWhen,
        ...(options.engines ? { engines: options.engines } : {}),
        ...(options.scanTimeoutMs ? { timeoutMs: options.scanTimeoutMs } : {}),
      });
      if (duplicateOf) {
        const reason = `Same page as ${duplicateOf}`;
        await markPageFailed(db, pageScanId, reason);
        await markFailed(db, pageScanId, reason);
        await savePageChanges(db, pageScanId, {
          new: [],
          fixed: [],
          open: [],
          scannerNew: [],
          previousPageId: null,
          duplicateOf,
        });
        outcome = { status: 'duplicate', reason };
      } else if ('unchanged' in scanned) {
        await storeReusedPage(db, pageScanId, previous!.id, scanned);
        await recordChanges(pageScanId, scanned.renderHash, page.previousAuditId, previous);
        outcome = { status: 'reused' };
      } else {
        const summary = await summarizeScan(scanned, { endpoint: options.ai, onError });
        // The page and its scan end in one transaction: a worker killed between two writes left
        // the page completed and its scan running for ever, since a retry skips an ended page.
        await db.transaction(async (tx) => {
          await storePageResult(tx, pageScanId, scanned, (engine, raw) =>
            countEngineRaw(engine, raw[engine]),
          );
          await storeResult(tx, pageScanId, scanned, summary);
        });
        const renderHash = scanned.renderHash ?? '';
        await notePageRendering(db, pageScanId, {
          renderHash,
          engineVersions: scanned.engineVersions,
        });
        if (page.previousAuditId && previous === undefined) {
          previous = await findPreviousPage(
            db,
            page.previousAuditId,
            tools.pageIdentity(scanned.finalUrl),
          );
        }
        await recordChanges(pageScanId, renderHash, page.previousAuditId, previous);
        outcome = { status: 'completed' };
      }
    } catch (error) {
      const reason = failureReason(error);
      if (!isPermanent(error) && job.retryCount < job.retryLimit) {
        // pg-boss retries the page; it stays sent, so the audit sends no other in its place.
        onError(error);
        await markRetrying(db, pageScanId, reason);
        throw error;
      }
      if (!isPermanent(error)) onError(error);
      await markPageFailed(db, pageScanId, reason);
      await markFailed(db, pageScanId, reason);
      outcome = { status: 'failed', reason };
    }
    await continueSiteAudit(options, page.auditSessionId, page.discovery);
    return outcome;
  };

  /**
   * What changed on the page since the previous audit's page of the same identity (a page new
   * to the site: all its issues are new). Nothing is recorded on a domain's first audit.
   */
  async function recordChanges(
    pageScanId: string,
    renderHash: string,
    previousAuditId: string | null,
    previous: Awaited<ReturnType<typeof findPreviousPage>>,
  ): Promise<void> {
    if (!previousAuditId) return;
    const fingerprints = async (scanId: string) =>
      (await listIssueKeys(db, scanId)).map((issue) => tools.issueFingerprint(issue));
    const current = await fingerprints(pageScanId);
    const before = previous ? await fingerprints(previous.id) : [];
    const changes = tools.compareIssues(before, current, {
      scannerChanged: previous
        ? !sameVersions(previous.engineVersions, tools.engineVersionsOf(options.engines))
        : false,
      pageChanged: previous ? previous.renderHash !== renderHash : true,
    });
    await savePageChanges(db, pageScanId, { ...changes, previousPageId: previous?.id ?? null });
  }
}
