import { setTimeout as sleep } from 'node:timers/promises';
import type PgBoss from 'pg-boss';
import {
  maxAuditPages,
  maxAuditPagesMessage,
  type AuditPageProgressStatus,
  type AuditProgress,
  type AuditResponse,
  type AuditSummary,
  type DiscoveryResult,
} from '#contract/index.js';
import type { AppDb } from '#db/client.js';
import * as store from '#db/stores/audits.js';
import { sendJob } from '#jobs/boss.js';
import { DiscoveryError, discoverPages } from '#scanner';
import { assertPublicTarget, normalizeTargetUrl, UrlSafetyError, type PagePool } from '#scanner';
import { domainOf } from '../domains/service.js';
import { HttpError, InvalidError, NotFoundError, UnavailableError } from '../http-errors.js';
import type { Caller } from '../plugins/caller.js';

/** What the discovery and audit service works with; handed in by the app. */
export interface AuditServiceDeps {
  db: AppDb;
  boss: PgBoss;
  /** This server's browser tabs, for discovery; audits themselves run on the workers. */
  pool: PagePool | undefined;
  allowPrivateTargets: boolean;
  /** ALLOWED_PRIVATE_ORIGINS: private origins allowed one by one. */
  allowedPrivateOrigins?: string[];
  /**
   * How long an audit call waits for its pages before ending the audit with what was scanned;
   * default eight minutes (ten pages on two tabs at the scanner's one-minute page budget is five).
   */
  waitForAuditMs?: number;
  /** How often the wait looks at the audit's row; default 500 ms. */
  pollMs?: number;
}

async function checkTarget(deps: AuditServiceDeps, input: string): Promise<URL> {
  try {
    const url = normalizeTargetUrl(input);
    await assertPublicTarget(url, {
      allowPrivateNetwork: deps.allowPrivateTargets,
      allowedPrivateOrigins: deps.allowedPrivateOrigins,
    });
    return url;
  } catch (error) {
    if (error instanceof UrlSafetyError) throw new InvalidError(error.message);
    throw error;
  }
}

/** `POST /api/discover-pages`: the site's pages worth scanning, homepage first. */
export async function discover(
  deps: AuditServiceDeps,
  input: string,
  signal: AbortSignal,
): Promise<DiscoveryResult> {
  const url = await checkTarget(deps, input);
  if (!deps.pool) {
    throw new UnavailableError('Failed to discover pages: this server runs no browser.');
  }
  try {
    return await discoverPages(deps.pool, url.href, {
      allowPrivateNetwork: deps.allowPrivateTargets,
      allowedPrivateOrigins: deps.allowedPrivateOrigins,
      signal,
    });
  } catch (error) {
    if (error instanceof UrlSafetyError) throw new InvalidError(error.message);
    // The site, not the request, was the problem (it did not load).
    if (error instanceof DiscoveryError) {
      throw new HttpError(422, `Failed to discover pages: ${error.message}`);
    }
    throw error;
  }
}

/**
 * `POST /api/smart-scan` and `POST /api/multi-page-audit`: checks every address first, queues the
 * audit, and answers once every page has ended. An address that cannot be scanned (malformed, a
 * host name that does not exist, a private address) is a page failed with its reason and the
 * others go on; only a list with nothing to scan is a 400, naming the first refusal, and stores
 * nothing. The spec's screens wait for this answer, so the call waits too, for a bounded time.
 */
export async function runAudit(
  deps: AuditServiceDeps,
  caller: Caller,
  inputs: string[],
  signal: AbortSignal,
): Promise<AuditResponse> {
  if (inputs.length > maxAuditPages) throw new InvalidError(maxAuditPagesMessage);
  const pages: store.NewAuditPage[] = [];
  for (const input of inputs) {
    try {
      const url = await checkTarget(deps, input);
      pages.push({ url: url.href, domain: domainOf(url) });
    } catch (error) {
      if (!(error instanceof InvalidError)) throw error;
      pages.push({ url: input, refusal: error.message });
    }
  }
  const scanned = pages.flatMap((page) => ('domain' in page ? [page] : []));
  if (scanned.length === 0) {
    const first = pages[0] as { url: string; refusal: string };
    throw new InvalidError(`URL 1 (${first.url}): ${first.refusal}`);
  }
  const auditSessionId = await store.insertAudit(deps.db, {
    domain: scanned[0]!.domain,
    pages,
    visitorId: caller.clientId,
    userId: caller.organisationId,
    requestedByIp: caller.ip,
  });
  const { jobId } = await sendJob(deps.boss, 'audit-site', {
    auditSessionId,
    urls: scanned.map((page) => page.url),
  });
  await store.setAuditJob(deps.db, auditSessionId, jobId);
  await waitForAudit(deps, auditSessionId, signal);
  return getAudit(deps, auditSessionId);
}

/**
 * Waits until the audit ends. When the wait runs out, the audit is ended here with the pages
 * scanned so far (the others are reported as errors) and its job is cancelled, so the caller gets
 * a full answer rather than a timeout.
 */
async function waitForAudit(
  deps: AuditServiceDeps,
  auditSessionId: string,
  signal: AbortSignal,
): Promise<void> {
  const deadline = Date.now() + (deps.waitForAuditMs ?? 8 * 60_000);
  for (;;) {
    const row = await store.findAudit(deps.db, auditSessionId);
    if (!row) throw new NotFoundError('Audit not found.');
    if (row.status !== 'pending' && row.status !== 'running') return;
    if (Date.now() > deadline) {
      await store.finishAudit(deps.db, auditSessionId, {
        browserStats: deps.pool?.stats() ?? { available: 0, active: 0, total: 0 },
        unfinishedReason: "The audit's time limit ran out before this page was scanned.",
      });
      await deps.boss.cancel('audit-site', auditSessionId).catch(() => undefined);
      return;
    }
    await sleep(deps.pollMs ?? 500, undefined, { signal });
  }
}

export async function getAudit(
  deps: AuditServiceDeps,
  auditSessionId: string,
): Promise<AuditResponse> {
  const row = await store.findAudit(deps.db, auditSessionId);
  if (!row?.summary) throw new NotFoundError('Audit not found.');
  return {
    auditId: row.id,
    results: await store.readAuditPages(deps.db, auditSessionId),
    summary: row.summary as AuditSummary,
  };
}

const pageProgress: Record<string, AuditPageProgressStatus> = {
  pending: 'pending',
  running: 'scanning',
  completed: 'complete',
  failed: 'error',
  aborted: 'error',
};

/**
 * `GET /api/audit-progress`: the caller's latest audit page by page. The audit call answers only
 * once every page has ended, so the screens read this meanwhile for their per-page badges.
 */
export async function getAuditProgress(
  deps: AuditServiceDeps,
  caller: Caller,
): Promise<AuditProgress> {
  const audit = caller.owner && (await store.findLatestAuditProgress(deps.db, caller.owner));
  if (!audit) throw new NotFoundError('No audit found.');
  return {
    auditId: audit.id,
    status: audit.status,
    pages: audit.pages.map((page) => ({
      url: page.url,
      status: pageProgress[page.status] ?? 'pending',
      error: page.error,
    })),
  };
}
