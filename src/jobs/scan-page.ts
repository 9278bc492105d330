import type PgBoss from 'pg-boss';
import { summarizeScan, type AiEndpoint } from '#ai/summary.js';
import type { AppDb } from '#db/client.js';
import {
  BrowserCrashError,
  PageLoadError,
  ScanTimeoutError,
  UrlSafetyError,
  scanPage,
  type PagePool,
  type ScanProgressEvent,
} from '#scanner';
import {
  logEntry,
  markFailed,
  markRetrying,
  markRunning,
  readScanStatus,
  storeResult,
  writeProgress,
  type ProgressUpdate,
} from '#db/stores/scans.js';
import type { ScanPagePayload } from './queues.js';

export interface ScanPageHandlerOptions {
  db: AppDb;
  pool: PagePool;
  /** ALLOW_PRIVATE_TARGETS: let scans reach loopback and private addresses. */
  allowPrivateTargets: boolean;
  /** ALLOWED_PRIVATE_ORIGINS: private origins allowed one by one. */
  allowedPrivateOrigins?: string[];
  /** How often a running scan looks for an abort request on its row; default 500 ms. */
  abortCheckMs?: number;
  /** Whole-page budget handed to the scanner (its default when absent). */
  scanTimeoutMs?: number;
  /** An OpenAI-compatible endpoint for the scan's summary; without one it is written from the findings. */
  ai?: AiEndpoint;
  /**
   * Told of each scan stored as completed (the worker queues its owner's alert), and again when a
   * retried job finds its scan already ended (its worker may have died between storing and
   * telling), so it must check the scan's status and be safe to repeat. A failure here is
   * reported to onError and never fails the stored scan.
   */
  onStored?: (scanId: string) => Promise<void>;
  /** Progress writes that fail (database gone) are reported here and never fail the scan. */
  onError?: (error: unknown) => void;
}

/** The user asked to stop: not a failure, and never retried. */
export class ScanAbortedError extends Error {
  override name = 'ScanAbortedError';
  constructor() {
    super('The scan was aborted.');
  }
}

export interface ScanPageOutcome {
  status: 'completed' | 'failed' | 'aborted' | 'skipped';
  score?: number;
  reason?: string;
}

/**
 * The `scan-page` job: runs scanPage on the worker's tab pool, writes progress to the scan's row
 * as it happens (any server answers progress polls from there), and stores the result. The abort
 * request arrives through the row too, since the worker may be on another machine than the server
 * that took it; it aborts the scan's signal, which frees the tab.
 *
 * Failures that another attempt cannot fix (refused or unreachable address, HTTP error, page
 * budget spent) end the scan as failed at once; others (a crash of the tab or of Chromium, a
 * database hiccup) throw so pg-boss retries, and the last attempt records its reason. A worker
 * that dies mid-scan loses its job's lease (src/jobs/boss.ts) and pg-boss retries the job
 * elsewhere; src/jobs/scan-recovery.ts ends the scans that run out of attempts that way.
 */
export function createScanPageHandler(options: ScanPageHandlerOptions) {
  const { db } = options;
  const onError = options.onError ?? (() => undefined);

  return async function handleScanPage(
    payload: ScanPagePayload,
    job: PgBoss.JobWithMetadata<unknown>,
  ): Promise<ScanPageOutcome> {
    const { scanId } = payload;
    if (!(await markRunning(db, scanId, job.id, job.retryCount))) {
      // A retry of a job whose worker stored the result and died before it could follow up: what
      // follows a stored result (the owner's alert, sent at most once) is done now instead.
      if (options.onStored) await options.onStored(scanId).catch(onError);
      return { status: 'skipped' };
    }

    const controller = new AbortController();
    const watcher = watchForAbort(db, scanId, controller, options.abortCheckMs ?? 500, onError);
    const progress = progressWriter(db, scanId, payload.url, onError);
    try {
      const result = await scanPage(options.pool, payload.url, {
        scanId,
        signal: controller.signal,
        allowPrivateNetwork: options.allowPrivateTargets,
        allowedPrivateOrigins: options.allowedPrivateOrigins,
        onProgress: progress.report,
        ...(payload.engines ? { engines: payload.engines } : {}),
        ...(payload.screenshots === undefined ? {} : { screenshots: payload.screenshots }),
        ...(options.scanTimeoutMs ? { timeoutMs: options.scanTimeoutMs } : {}),
      });
      await progress.flush();
      const summary = await summarizeScan(result, { endpoint: options.ai, onError });
      const stored = await storeResult(db, scanId, result, summary);
      if (stored && options.onStored) await options.onStored(scanId).catch(onError);
      return stored ? { status: 'completed', score: result.score.value } : { status: 'aborted' };
    } catch (error) {
      await progress.flush();
      if (controller.signal.reason instanceof ScanAbortedError) return { status: 'aborted' };
      const reason = failureReason(error);
      if (isPermanent(error) || job.retryCount >= job.retryLimit) {
        await markFailed(db, scanId, reason);
        return { status: 'failed', reason };
      }
      await markRetrying(db, scanId, reason);
      throw error;
    } finally {
      watcher.stop();
    }
  };
}

/**
 * The page's own failures, which another attempt would meet again. A crashed tab or browser
 * (BrowserCrashError) is not one of them: Chromium dies for reasons of its own (memory pressure,
 * an OOM kill, a restart), and the next attempt gets a fresh one.
 */
export function isPermanent(error: unknown): boolean {
  return (
    error instanceof UrlSafetyError ||
    error instanceof PageLoadError ||
    error instanceof ScanTimeoutError
  );
}

export function failureReason(error: unknown): string {
  if (isPermanent(error) || error instanceof BrowserCrashError) return (error as Error).message;
  // Anything else is ours (database, queue); its details stay in the worker's log.
  return 'The scan stopped because of an internal error.';
}

function watchForAbort(
  db: AppDb,
  scanId: string,
  controller: AbortController,
  everyMs: number,
  onError: (error: unknown) => void,
): { stop(): void } {
  let checking = false;
  const timer = setInterval(() => {
    if (checking) return;
    checking = true;
    readScanStatus(db, scanId)
      .then((status) => {
        if (status === 'aborted' || status === undefined) controller.abort(new ScanAbortedError());
      })
      .catch(onError)
      .finally(() => {
        checking = false;
      });
  }, everyMs);
  return { stop: () => clearInterval(timer) };
}

/** Writes each progress event in order, without holding the scan up. */
function progressWriter(
  db: AppDb,
  scanId: string,
  url: string,
  onError: (error: unknown) => void,
): { report(event: ScanProgressEvent): void; flush(): Promise<void> } {
  let chain: Promise<void> = Promise.resolve();
  return {
    report(event) {
      const update = progressUpdate(event, url);
      if (!update) return;
      chain = chain.then(() => writeProgress(db, scanId, update)).catch(onError);
    },
    flush: () => chain,
  };
}

/** The scanner's steps in the spec's live-scan vocabulary. */
function progressUpdate(event: ScanProgressEvent, url: string): ProgressUpdate | undefined {
  const base = { toolProgress: 0, overallProgress: event.percent, currentPage: url };
  switch (event.stage) {
    case 'loading':
      return {
        ...base,
        stage: 'initializing',
        currentTool: null,
        log: logEntry('info', event.message),
      };
    case 'engine':
      return {
        ...base,
        stage: 'scanning',
        currentTool: event.engine ?? null,
        log: logEntry('info', event.message, event.engine ?? 'system'),
      };
    case 'screenshots':
      return {
        ...base,
        stage: 'scanning',
        currentTool: 'screenshots',
        log: logEntry('info', event.message),
      };
    case 'analyzing':
      return {
        ...base,
        stage: 'analyzing',
        currentTool: null,
        log: logEntry('info', event.message),
      };
    case 'done':
      // The stored result marks the scan complete, in the same transaction as its issues.
      return undefined;
  }
}
