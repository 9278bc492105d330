import { setTimeout as sleep } from 'node:timers/promises';
import type PgBoss from 'pg-boss';
import type {
  RawScanResult,
  ReportResponse,
  ScanListEntry,
  ScanProgress,
  ScanResults,
  ScanVisibilityResponse,
} from '#contract/index.js';
import type { AppDb } from '#db/client.js';
import { isOwnedBy } from '#db/stores/owner.js';
import * as store from '#db/stores/scans.js';
import { createScan } from '#jobs/scan-queue.js';
import { assertPublicTarget, normalizeTargetUrl, UrlSafetyError } from '#scanner';
import {
  ConflictError,
  HttpError,
  InvalidError,
  NotFoundError,
  UnavailableError,
} from '../http-errors.js';
import { domainOf, findOwnMonitored } from '../domains/service.js';
import { recordAudit } from '../audit-log/service.js';
import type { Caller } from '../plugins/caller.js';
import {
  assertReadable,
  createShareLink,
  revokeShareLink,
  scanNotFound,
  type Reader,
} from './access.js';
import { finalStages, isUnfinished, sseMessage, toProgress, toResults } from './progress.js';
import { toRawResult, toReport } from './report.js';

export { loadReportModel } from './report-model.js';

/** What the scan service works with; handed in by the app, so tests use real ones. */
export interface ScanServiceDeps {
  db: AppDb;
  boss: PgBoss;
  /** Where the web app is served (PUBLIC_URL), for share links. */
  publicUrl?: string;
  /** ALLOW_PRIVATE_TARGETS: accept loopback and private addresses. */
  allowPrivateTargets: boolean;
  /** ALLOWED_PRIVATE_ORIGINS: private origins allowed one by one. */
  allowedPrivateOrigins?: string[];
  /** How long `analyze` and `raw-scan` wait for their scan; default three minutes. */
  waitForScanMs?: number;
  /** How often waits and event streams look at the scan's row; default 250 ms. */
  pollMs?: number;
}

/**
 * Who starts a scan: a request's caller, or sign-up (server/auth) starting one for the account it
 * just created.
 */
export type ScanStarter = Pick<Caller, 'clientId' | 'ip'> & {
  organisationId?: string | undefined;
};

const noScan = () => new NotFoundError('No scan found.');

/** Checks the address and queues its scan; the scan row is written only for a valid target. */
export async function startScan(
  deps: ScanServiceDeps,
  caller: ScanStarter,
  input: string,
  options: { demo?: boolean } = {},
): Promise<{ id: string }> {
  let url: URL;
  try {
    url = normalizeTargetUrl(input);
    await assertPublicTarget(url, {
      allowPrivateNetwork: deps.allowPrivateTargets,
      allowedPrivateOrigins: deps.allowedPrivateOrigins,
    });
  } catch (error) {
    if (error instanceof UrlSafetyError) throw new InvalidError(error.message);
    throw error;
  }
  const scan = await createScan(deps.db, deps.boss, {
    url: url.href,
    domain: domainOf(url),
    visitorId: caller.clientId,
    userId: caller.organisationId,
    requestedByIp: caller.ip,
    demo: options.demo,
  });
  return { id: scan.id };
}

export async function listScans(deps: ScanServiceDeps, caller: Caller): Promise<ScanListEntry[]> {
  if (!caller.owner) return [];
  const rows = await store.listScansOf(deps.db, caller.owner, 100);
  return rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() }));
}

/** `GET /api/report/{id}`: for whoever may read the scan (access.ts), else 404. */
export async function getReport(
  deps: ScanServiceDeps,
  caller: ScanStarter,
  scanId: string,
  options: { raw: boolean; share?: string | undefined },
): Promise<ReportResponse> {
  await assertReadable(deps.db, caller, scanId, options.share);
  return reportOf(deps, caller, scanId, { raw: options.raw });
}

async function reportOf(
  deps: ScanServiceDeps,
  caller: ScanStarter,
  scanId: string,
  options: { raw: boolean },
): Promise<ReportResponse> {
  const scan = await store.findScan(deps.db, scanId, options);
  if (!scan) throw scanNotFound();
  // The owner is the organisation the scan was started in; an anonymous scan has no one to share it.
  const canChange = caller.organisationId !== undefined && scan.userId === caller.organisationId;
  const [issues, previous, monitored] = await Promise.all([
    store.listIssues(deps.db, scanId),
    scan.status === 'completed' ? store.findPreviousScanOfPage(deps.db, scan) : undefined,
    caller.organisationId === undefined
      ? undefined
      : findOwnMonitored(deps.db, caller.organisationId, scan.domain),
  ]);
  return {
    ...toReport(scan, issues, {
      ...options,
      sharing: { isPublic: scan.isPublic, canChange },
      previous,
    }),
    monitoredByCaller: monitored !== undefined,
  };
}

/**
 * The owner makes a scan's public audit page (/public/audit/{id}) visible or not. Anyone else,
 * signed in or not, gets the same 404 as for a scan that does not exist.
 */
export async function setVisibility(
  deps: ScanServiceDeps,
  caller: Caller,
  scanId: string,
  isPublic: boolean,
): Promise<ScanVisibilityResponse> {
  const organisationId = caller.organisationId;
  const notFound = () => new NotFoundError('Scan Not Found: no scan of yours has this id.');
  if (!organisationId) throw notFound();
  const row = await deps.db.transaction(async (tx) => {
    const changed = await store.setScanVisibility(tx, scanId, organisationId, isPublic);
    if (!changed) throw notFound();
    await recordAudit(
      tx,
      caller,
      'scan.visibility_changed',
      { type: 'scan', id: scanId },
      {
        isPublic,
      },
    );
    return changed;
  });
  return { scanId: row.id, isPublic: row.isPublic };
}

/** `POST /api/analyze`: scan now and answer the report once the scan is stored. */
export async function analyze(
  deps: ScanServiceDeps,
  caller: ScanStarter,
  input: string,
  signal: AbortSignal,
): Promise<ReportResponse> {
  const { id } = await startScan(deps, caller, input);
  await waitOrStop(deps, id, signal);
  // The caller has just started this scan, so it is theirs to read.
  return reportOf(deps, caller, id, { raw: false });
}

/** `POST /api/raw-scan`: scan now and answer each engine's raw output. */
export async function rawScan(
  deps: ScanServiceDeps,
  caller: ScanStarter,
  input: string,
  signal: AbortSignal,
): Promise<RawScanResult> {
  const { id } = await startScan(deps, caller, input);
  await waitOrStop(deps, id, signal);
  const scan = await store.findScan(deps.db, id, { raw: true });
  const raw = scan && toRawResult(scan);
  if (!raw) throw new HttpError(500, 'The scan finished without raw results.');
  return raw;
}

/**
 * For the calls that answer with the finished scan: a caller who goes away (Cancel, a closed
 * tab) no longer wants it, so the scan stops rather than holding a browser tab for nobody.
 */
async function waitOrStop(deps: ScanServiceDeps, scanId: string, signal: AbortSignal) {
  try {
    await waitForCompletion(deps, scanId, signal);
  } catch (error) {
    if (signal.aborted) await stop(deps, scanId);
    throw error;
  }
}

/**
 * Waits until the scan ends. A scan that failed answers 422 with its reason (the page, not the
 * request, was the problem); one aborted meanwhile 409; one still running after the wait 503.
 */
async function waitForCompletion(
  deps: ScanServiceDeps,
  scanId: string,
  signal: AbortSignal,
): Promise<void> {
  const deadline = Date.now() + (deps.waitForScanMs ?? 180_000);
  for (;;) {
    const row = await store.findScanProgress(deps.db, scanId);
    if (!row) throw noScan();
    if (row.status === 'completed') return;
    if (row.status === 'failed') {
      throw new HttpError(422, row.error ?? 'The scan failed.');
    }
    if (row.status === 'aborted') throw new ConflictError('The scan was aborted.');
    if (Date.now() > deadline) {
      throw new UnavailableError(
        `The scan is taking longer than expected; its report will be at /api/report/${scanId}.`,
      );
    }
    await sleep(deps.pollMs ?? 250, undefined, { signal });
  }
}

/** Progress answers its own 404 ("No scan found.") for a scan the caller may not read. */
async function assertProgressReadable(
  deps: ScanServiceDeps,
  caller: Reader,
  scanId: string,
  share?: string,
): Promise<void> {
  try {
    await assertReadable(deps.db, caller, scanId, share);
  } catch (error) {
    throw error instanceof NotFoundError ? noScan() : error;
  }
}

/** The scan asked for (if the caller may read it), or the caller's latest. */
async function findProgressRow(
  deps: ScanServiceDeps,
  caller: Caller,
  scanId?: string,
  share?: string,
) {
  if (scanId) {
    await assertProgressReadable(deps, caller, scanId, share);
    return store.findScanProgress(deps.db, scanId);
  }
  return caller.owner && store.findLatestScanOf(deps.db, caller.owner);
}

async function resultsOf(deps: ScanServiceDeps, scanId: string): Promise<ScanResults | null> {
  const scan = await store.findScan(deps.db, scanId, { raw: true });
  if (!scan || scan.status !== 'completed') return null;
  return toResults(scan, await store.listIssues(deps.db, scanId));
}

export async function getProgress(
  deps: ScanServiceDeps,
  caller: Caller,
  scanId?: string,
  share?: string,
): Promise<ScanProgress> {
  const row = await findProgressRow(deps, caller, scanId, share);
  if (!row) throw noScan();
  const results = row.status === 'completed' ? await resultsOf(deps, row.id) : null;
  return toProgress(row, results);
}

export async function getResults(
  deps: ScanServiceDeps,
  caller: Caller,
  scanId?: string,
  share?: string,
): Promise<ScanResults> {
  const row = await findProgressRow(deps, caller, scanId, share);
  if (!row) throw noScan();
  if (row.status !== 'completed') {
    throw new ConflictError(`The scan has not completed (it is ${row.status}).`);
  }
  const results = await resultsOf(deps, row.id);
  if (!results) throw noScan();
  return results;
}

/**
 * The scan's progress as Server-Sent Events: a `progress` message whenever the row changes, ending
 * after the final stage. Checked before streaming so an unknown id is a plain 404.
 */
export async function progressEvents(
  deps: ScanServiceDeps,
  caller: Reader,
  scanId: string,
  signal: AbortSignal,
): Promise<AsyncGenerator<string>> {
  await assertProgressReadable(deps, caller, scanId);
  const first = await store.findScanProgress(deps.db, scanId);
  if (!first) throw noScan();
  return (async function* stream() {
    let last = '';
    let lastSent = Date.now();
    while (!signal.aborted) {
      const row = await store.findScanProgress(deps.db, scanId);
      if (!row) return;
      const results = row.status === 'completed' ? await resultsOf(deps, row.id) : null;
      const message = sseMessage('progress', toProgress(row, results));
      if (message !== last) {
        last = message;
        lastSent = Date.now();
        yield message;
      } else if (Date.now() - lastSent > 15_000) {
        // A comment line keeps proxies from closing a quiet stream.
        lastSent = Date.now();
        yield ': keep-alive\n\n';
      }
      if (finalStages.has(row.stage) && !isUnfinished(row.status)) return;
      await sleep(deps.pollMs ?? 250, undefined, { signal }).catch(() => undefined);
    }
  })();
}

/**
 * Aborts one of the caller's scans (or their latest unfinished one): the row says aborted at once,
 * a queued job is cancelled, and a running worker sees the row and stops, freeing its tab.
 */
export async function abortScan(
  deps: ScanServiceDeps,
  caller: Caller,
  scanId?: string,
): Promise<{ success: true; message: string }> {
  const owner = caller.owner;
  if (!owner) throw noScan();
  let target: string | undefined;
  if (scanId) {
    const row = await store.findScanProgress(deps.db, scanId);
    if (!row || !isOwnedBy(row, owner)) throw noScan();
    if (!isUnfinished(row.status))
      throw new ConflictError(`The scan has already ended (${row.status}).`);
    target = row.id;
  } else {
    [target] = await store.listUnfinishedScanIdsOf(deps.db, owner);
    if (!target) throw new NotFoundError('No scan is running.');
  }
  await stop(deps, target);
  return { success: true, message: 'Scan aborted.' };
}

/** Stops every unfinished scan of the caller, so the next live scan starts from a clean slate. */
export async function resetScans(
  deps: ScanServiceDeps,
  caller: Caller,
): Promise<{ success: true; message: string }> {
  const ids = caller.owner ? await store.listUnfinishedScanIdsOf(deps.db, caller.owner) : [];
  for (const id of ids) await stop(deps, id);
  return {
    success: true,
    message: ids.length > 0 ? `Stopped ${ids.length} running scan(s).` : 'Nothing was running.',
  };
}

async function stop(deps: ScanServiceDeps, scanId: string): Promise<void> {
  if (
    await store.markAborted(deps.db, scanId, store.logEntry('warning', 'Scan aborted by the user'))
  ) {
    await deps.boss.cancel('scan-page', scanId);
  }
}

/** `POST /api/scans/{id}/share-link`: the owner's new link (the previous one stops working). */
export async function shareScan(
  deps: ScanServiceDeps,
  caller: Reader,
  scanId: string,
): Promise<{ url: string; token: string }> {
  const token = await createShareLink(deps.db, caller, scanId);
  const base = deps.publicUrl ?? 'http://localhost:3000';
  return {
    url: `${base}/api/html-report/${encodeURIComponent(scanId)}?share=${token}`,
    token,
  };
}

/** `DELETE /api/scans/{id}/share-link`: the link stops opening the scan at once. */
export async function unshareScan(
  deps: ScanServiceDeps,
  caller: Reader,
  scanId: string,
): Promise<void> {
  await revokeShareLink(deps.db, caller, scanId);
}
