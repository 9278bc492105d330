import type { EngineId, Issue, PageScanResult, RawScanResult } from '#contract/index.js';
import { analyzeRawResult } from '../analysis/index.js';
import { scanPage } from '../scan-page.js';
import type { PagePool } from '../types.js';
import type { ActCase, ActExpected, ActManifest } from './corpus.js';
import { actCaseUrl } from './corpus.js';
import type { ActOutcome, ActSource } from './outcome.js';
import { caseOutcomes } from './outcome.js';

/** What the scanner said about one ACT case, per source. */
export interface ActCaseResult {
  caseId: string;
  ruleId: string;
  title: string;
  expected: ActExpected;
  outcomes: Record<ActSource, ActOutcome>;
  /** The page could not be scanned at all: every source then reports nothing. */
  scanError?: string;
  engineErrors: Partial<Record<EngineId, string>>;
  engineVersions: Partial<Record<EngineId, string>>;
}

export interface ActRunOptions {
  /** Scans at a time; the pool's tab count is the real limit. */
  concurrency?: number;
  timeoutMs?: number;
  engineTimeoutMs?: number;
  signal?: AbortSignal;
  onCase?: (result: ActCaseResult, done: number, total: number) => void;
  /** Every successful scan, e.g. to keep its raw output for re-scoring without a browser. */
  onScan?: (c: ActCase, scan: PageScanResult) => void;
}

const nothing: Record<ActSource, ActOutcome> = {
  merged: 'none',
  axe: 'none',
  pa11y: 'none',
  ibm: 'none',
};

/** Scans one case with the product's own scanPage, as a user's scan would run. */
export async function runActCase(
  pool: PagePool,
  baseUrl: string,
  manifest: ActManifest,
  c: ActCase,
  options: ActRunOptions = {},
): Promise<ActCaseResult> {
  try {
    const scan = await scanPage(pool, actCaseUrl(baseUrl, manifest, c), {
      allowPrivateNetwork: true,
      // The corpus has AAA rules (enhanced contrast, no timed refresh): the scan tests up to AAA,
      // as a user who asks for --level AAA; AA-only scans leave those rules' failures alone.
      level: 'AAA',
      screenshots: false,
      // Test cases are static pages: everything they need has arrived by `load`.
      networkQuietCapMs: 0,
      timeoutMs: options.timeoutMs ?? 45_000,
      engineTimeoutMs: options.engineTimeoutMs ?? 20_000,
      signal: options.signal,
    });
    options.onScan?.(c, scan);
    return caseResult(manifest, c, scan);
  } catch (error) {
    if (options.signal?.aborted) throw error;
    return failedCaseResult(c, error instanceof Error ? error.message : String(error));
  }
}

type ScanForScoring = Pick<PageScanResult, 'raw' | 'engineErrors' | 'engineVersions'> & {
  issues: readonly Issue[];
};

/** Scores one case from what its scan produced. */
export function caseResult(manifest: ActManifest, c: ActCase, scan: ScanForScoring): ActCaseResult {
  const rule = manifest.rules.find((r) => r.id === c.rule_id);
  if (!rule) throw new Error(`ACT case ${c.id} names unknown rule ${c.rule_id}`);
  return {
    caseId: c.id,
    ruleId: c.rule_id,
    title: c.title,
    expected: c.expected,
    outcomes: caseOutcomes(scan, rule),
    engineErrors: scan.engineErrors,
    engineVersions: scan.engineVersions,
  };
}

export function failedCaseResult(c: ActCase, scanError: string): ActCaseResult {
  return {
    caseId: c.id,
    ruleId: c.rule_id,
    title: c.title,
    expected: c.expected,
    outcomes: { ...nothing },
    scanError,
    engineErrors: {},
    engineVersions: {},
  };
}

/** One case's raw engine output, kept so the analysis can be re-scored without a browser. */
export interface StoredActScan {
  caseId: string;
  engines?: EngineId[];
  engineErrors?: Partial<Record<EngineId, string>>;
  engineVersions?: Partial<Record<EngineId, string>>;
  raw?: RawScanResult;
  scanError?: string;
}

export function storedScan(c: ActCase, scan: PageScanResult): StoredActScan {
  return {
    caseId: c.id,
    engines: scan.engines,
    engineErrors: scan.engineErrors,
    engineVersions: scan.engineVersions,
    raw: scan.raw,
  };
}

/** Re-runs the current analysis (merge, classification) on a stored scan of the case. */
export function rescoreStoredScan(
  manifest: ActManifest,
  c: ActCase,
  stored: StoredActScan | undefined,
): ActCaseResult {
  if (!stored?.raw) return failedCaseResult(c, stored?.scanError ?? 'not in the stored run');
  const engines = stored.engines ?? ['axe', 'pa11y', 'ibm'];
  return caseResult(manifest, c, {
    issues: analyzeRawResult(stored.raw, engines).issues,
    raw: stored.raw,
    engineErrors: stored.engineErrors ?? {},
    engineVersions: stored.engineVersions ?? {},
  });
}

/** Scans cases `concurrency` at a time; results come back in the order of `cases`. */
export async function runActCases(
  pool: PagePool,
  baseUrl: string,
  manifest: ActManifest,
  cases: readonly ActCase[],
  options: ActRunOptions = {},
): Promise<ActCaseResult[]> {
  const results: ActCaseResult[] = new Array<ActCaseResult>(cases.length);
  let next = 0;
  let done = 0;
  const worker = async (): Promise<void> => {
    while (next < cases.length) {
      const index = next++;
      const c = cases[index]!;
      const result = await runActCase(pool, baseUrl, manifest, c, options);
      results[index] = result;
      done += 1;
      options.onCase?.(result, done, cases.length);
    }
  };
  const workers = Math.max(1, options.concurrency ?? 2);
  await Promise.all(Array.from({ length: Math.min(workers, cases.length) }, worker));
  return results;
}
