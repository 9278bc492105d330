import {
  emptyRaw,
  engineIds,
  type EngineId,
  type Issue,
  type IssueSummary,
  type PageScanResult,
  type ProcessingTimes,
  type RawScanResult,
  type ScoreLabel,
} from '../contract/index.js';

/**
 * Everything a document about one scan shows, built once from the database (server/documents/
 * loader.ts) and handed to small pure renderers: HTML report, statement PDF, VPAT Word file and
 * the CSV, JSON and Markdown exports. Renderers never read the database themselves.
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
}

/** The standard every document of a scan reports against (spec: "WCAG 2.1 AA" on report pages). */
export const reportStandard = 'WCAG 2.1 Level AA';

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

const noRawResult: RawScanResult = {
  meta: {
    url: '',
    scanId: '',
    timestamp: '',
    processingTimes: { load: 0, axe: 0, pa11y: 0, ibm: 0, total: 0 },
  },
  pa11yRaw: emptyRaw.pa11y(null),
  axeRaw: emptyRaw.axe(null),
  ibmRaw: emptyRaw.ibm(null),
};

/**
 * The model in the scanner's own shape, so the CSV, JSON and Markdown producers the CLI uses
 * render stored scans too (one producer per format, not one per caller).
 */
export function toPageScanResult(model: ReportModel): PageScanResult {
  return {
    url: model.url,
    finalUrl: model.finalUrl,
    title: model.pageTitle,
    startedAt: model.createdAt.toISOString(),
    finishedAt: model.scannedAt.toISOString(),
    engines: model.engines,
    engineVersions: model.engineVersions,
    engineErrors: model.engineErrors,
    processingTimes: model.processingTimes,
    issues: model.issues,
    summary: model.summary,
    score: model.score,
    screenshots: [],
    raw: model.raw ?? noRawResult,
  };
}
