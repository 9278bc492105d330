import { z } from 'zod';
import { OwnEngineRaw } from './own-checks.js';

/**
 * The spec's "Raw scan result" (public-area.md §3): each engine's output in a fixed shape, kept
 * for exports and the raw-results screens. Extra fields of the engines are passed through.
 */
export const ProcessingTimes = z.object({
  load: z.number(),
  axe: z.number(),
  pa11y: z.number(),
  ibm: z.number(),
  /** Conformly's own engines; absent in scans stored before they ran. */
  checks: z.number().optional(),
  keyboard: z.number().optional(),
  behaviour: z.number().optional(),
  total: z.number(),
});
export type ProcessingTimes = z.infer<typeof ProcessingTimes>;

export const Pa11yRawIssue = z.looseObject({
  type: z.string(),
  code: z.string(),
  message: z.string(),
  context: z.string().nullable(),
  selector: z.string(),
});
export const Pa11yRaw = z.object({
  issues: z.array(Pa11yRawIssue),
  documentTitle: z.string(),
  error: z.string().nullable(),
});
export type Pa11yRaw = z.infer<typeof Pa11yRaw>;

export const AxeRawNode = z.looseObject({
  target: z.array(z.unknown()),
  html: z.string(),
});
export const AxeRawRule = z.looseObject({
  id: z.string(),
  impact: z.string().nullable(),
  description: z.string(),
  helpUrl: z.string(),
  nodes: z.array(AxeRawNode),
});
export const AxeRaw = z.object({
  violations: z.array(AxeRawRule),
  passes: z.array(AxeRawRule),
  incomplete: z.array(AxeRawRule),
  /** Rules with nothing to test on the page (no nodes); absent in scans stored before. */
  inapplicable: z.array(AxeRawRule).optional(),
  error: z.string().nullable(),
});
export type AxeRaw = z.infer<typeof AxeRaw>;

export const IbmRawResult = z.looseObject({
  ruleId: z.string(),
  messageCode: z.string(),
  /** violation | potentialviolation | recommendation | potentialrecommendation | manual */
  level: z.string(),
  message: z.string(),
  path: z.object({ dom: z.string() }).loose(),
});
export const IbmRaw = z.object({
  report: z.object({
    results: z.array(IbmRawResult),
    summary: z.object({
      counts: z.object({
        total: z.number(),
        violation: z.number(),
        potentialviolation: z.number(),
        recommendation: z.number(),
        potentialrecommendation: z.number(),
        manual: z.number(),
        information: z.number(),
      }),
    }),
  }),
  error: z.string().nullable(),
});
export type IbmRaw = z.infer<typeof IbmRaw>;
export type IbmCounts = IbmRaw['report']['summary']['counts'];

/** IBM's summary before any result is counted. */
export const zeroIbmCounts = (): IbmCounts => ({
  total: 0,
  violation: 0,
  potentialviolation: 0,
  recommendation: 0,
  potentialrecommendation: 0,
  manual: 0,
  information: 0,
});

/**
 * Each engine's raw output when it produced nothing: with its error when it failed, or with
 * `null` where a stored scan simply has no output to show.
 */
export const emptyRaw = {
  pa11y: (error: string | null): Pa11yRaw => ({ issues: [], documentTitle: '', error }),
  axe: (error: string | null): AxeRaw => ({ violations: [], passes: [], incomplete: [], error }),
  ibm: (error: string | null): IbmRaw => ({
    report: { results: [], summary: { counts: zeroIbmCounts() } },
    error,
  }),
};

/**
 * Each engine's raw output keyed by engine id: how it is stored and looped over. The spec names
 * the same outputs axeRaw, pa11yRaw and ibmRaw (RawScanResult); `specRawName` is the one bridge.
 */
export interface RawByEngine {
  axe: AxeRaw;
  pa11y: Pa11yRaw;
  ibm: IbmRaw;
  /** Conformly's own engines: absent in scans stored before they ran. */
  checks?: OwnEngineRaw;
  keyboard?: OwnEngineRaw;
  behaviour?: OwnEngineRaw;
}

/** The spec's field name of each engine's raw output. */
export const specRawName = {
  axe: 'axeRaw',
  pa11y: 'pa11yRaw',
  ibm: 'ibmRaw',
  checks: 'checksRaw',
  keyboard: 'keyboardRaw',
  behaviour: 'behaviourRaw',
} as const satisfies Record<keyof RawByEngine, string>;

type SpecRaw = {
  axeRaw: AxeRaw;
  pa11yRaw: Pa11yRaw;
  ibmRaw: IbmRaw;
  checksRaw?: OwnEngineRaw;
  keyboardRaw?: OwnEngineRaw;
  behaviourRaw?: OwnEngineRaw;
};

/** The spec's named outputs (a PageScanResult's raw) keyed by engine id. */
export function rawByEngine(raw: SpecRaw): RawByEngine {
  return {
    axe: raw.axeRaw,
    pa11y: raw.pa11yRaw,
    ibm: raw.ibmRaw,
    ...(raw.checksRaw ? { checks: raw.checksRaw } : {}),
    ...(raw.keyboardRaw ? { keyboard: raw.keyboardRaw } : {}),
    ...(raw.behaviourRaw ? { behaviour: raw.behaviourRaw } : {}),
  };
}

/** Keyed outputs under the spec's names, for the answers and documents that use them. */
export function specRaw(raw: RawByEngine): SpecRaw {
  return {
    axeRaw: raw.axe,
    pa11yRaw: raw.pa11y,
    ibmRaw: raw.ibm,
    ...(raw.checks ? { checksRaw: raw.checks } : {}),
    ...(raw.keyboard ? { keyboardRaw: raw.keyboard } : {}),
    ...(raw.behaviour ? { behaviourRaw: raw.behaviour } : {}),
  };
}

export const RawScanResult = z.object({
  meta: z.object({
    url: z.string(),
    scanId: z.string(),
    timestamp: z.string(),
    processingTimes: ProcessingTimes,
  }),
  pa11yRaw: Pa11yRaw,
  axeRaw: AxeRaw,
  ibmRaw: IbmRaw,
  /** Conformly's own engines (beyond the spec's three); absent when not run. */
  checksRaw: OwnEngineRaw.optional(),
  keyboardRaw: OwnEngineRaw.optional(),
  behaviourRaw: OwnEngineRaw.optional(),
});
export type RawScanResult = z.infer<typeof RawScanResult>;
