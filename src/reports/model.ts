import {
  engineIds,
  type EngineId,
  type Issue,
  type IssueSummary,
  type PageScanResult,
  type ProcessingTimes,
  type RawScanResult,
  type Screenshot,
  type ScoreLabel,
  wcagStandard,
} from '#contract/index.js';

/**
 * Everything a document about one scan shows, built once, from the database for a stored scan
 * (server/documents) or from a fresh PageScanResult by `reportModelOf` (the CLI), and handed to
 * small pure renderers: HTML report, statement PDF, VPAT Word file and the CSV, JSON, Markdown,
 * SARIF and JUnit exports. Renderers never read the database themselves.
 */
export interface ReportModel {
  scanId: string;
  /** The address the owner asked for, and where the browser ended up. */
  url: string;
  finalUrl: string;
  domain: string;
  /** The page's own title: text from the scanned site, so every renderer escapes it. */
  pageTitle: string;
  /** When the scan was asked for and when its result was stored. */
  createdAt: Date;
  scannedAt: Date;
  score: { value: number; label: ScoreLabel };
  summary: IssueSummary;
  /** Engines that ran on the page, in engine order, with the version each reported. */
  engines: EngineId[];
  engineVersions: Partial<Record<EngineId, string>>;
  /** Engines that threw or timed out; their rules count neither for nor against the page. */
  engineErrors: Partial<Record<EngineId, string>>;
  processingTimes: ProcessingTimes;
  /** Merged issues of every kind, most severe first. */
  issues: Issue[];
  /** The summary stored on the scan (AI-written or written from the findings, as it says). */
  aiSummary: string | null;
  /** Each engine's own output; only loaded when a renderer needs it. */
  raw?: RawScanResult;
  /** Only a fresh scan has them (the CLI's JSON keeps them with --include-raw). */
  screenshots?: Screenshot[];
}

/** The standard every document of a scan reports against (contract vocabulary, ADR 0008). */
export const reportStandard = wcagStandard.long;

export const violationsOf = (model: ReportModel) =>
  model.issues.filter((issue) => issue.kind === 'violation');
export const needsReviewOf = (model: ReportModel) =>
  model.issues.filter((issue) => issue.kind === 'needs-review');
export const bestPracticesOf = (model: ReportModel) =>
  model.issues.filter((issue) => issue.kind === 'best-practice');

/** Engines whose results count: those that ran and did not fail. */
export function enginesThatFinished(model: ReportModel): EngineId[] {
  return model.engines.filter((engine) => !model.engineErrors[engine]);
}

/** Engines in the contract's order, from any set of names (versions, errors). */
export function orderedEngines(names: Iterable<string>): EngineId[] {
  const set = new Set(names);
  return engineIds.filter((engine) => set.has(engine));
}

/**
 * The model of a page the scanner just scanned: the one way the CLI turns a scan into documents,
 * so its exports and a stored scan's are the same renderers on the same model.
 */
export function reportModelOf(result: PageScanResult): ReportModel {
  return {
    scanId: result.raw.meta.scanId,
    url: result.url,
    finalUrl: result.finalUrl,
    domain: new URL(result.finalUrl || result.url).hostname,
    pageTitle: result.title,
    createdAt: new Date(result.startedAt),
    scannedAt: new Date(result.finishedAt),
    score: result.score,
    summary: result.summary,
    engines: result.engines,
    engineVersions: result.engineVersions,
    engineErrors: result.engineErrors,
    processingTimes: result.processingTimes,
    issues: result.issues,
    aiSummary: null,
    raw: result.raw,
    screenshots: result.screenshots,
  };
}
