import type { Browser, Page } from 'puppeteer-core';
import type {
  AxeRaw,
  ConformanceLevel,
  EngineId,
  Finding,
  IbmRaw,
  OwnEngineRaw,
  Pa11yRaw,
} from '#contract/index.js';

/** Each engine's part of the spec's raw result, by engine id. */
export interface RawParts {
  axe: AxeRaw;
  pa11y: Pa11yRaw;
  ibm: IbmRaw;
  checks: OwnEngineRaw;
  keyboard: OwnEngineRaw;
  behaviour: OwnEngineRaw;
}

/** What every engine's raw output carries: null, or why the engine produced nothing. */
export interface EngineRaw {
  error: string | null;
}

export interface EngineContext {
  browser: Browser;
  /** The URL the page ended up on after redirects. */
  url: string;
  /** The viewport the page was loaded with; engines that set one must keep it. */
  viewport: { width: number; height: number };
  /** The WCAG level the scan tests: an engine with AAA rules runs them only at AAA. */
  level: ConformanceLevel;
  /**
   * Every engine this scan runs. An engine may leave a rule out where another of them tests the
   * same thing on the same page (IBM's obscured-focus rule beside the keyboard walk).
   */
  engines?: readonly EngineId[];
}

export interface EngineRun<R> {
  raw: R;
  /** The version that actually ran, e.g. axe-core "4.14.1". */
  version: string;
}

/**
 * How many things an engine reported on a page, in its own terms (before any merging): `issues`
 * is the figure the audit tables show for the engine, the other three split its output by level.
 */
export interface EngineCounts {
  issues: number;
  errors: number;
  warnings: number;
  notices: number;
}

/**
 * One accessibility engine and everything the product knows about it: how to run it on an
 * already loaded page (`run` must not navigate: all engines share one page load), what it
 * records when it fails, how its raw output becomes Findings, how its output is counted, and
 * which WCAG criteria its rules can fail.
 */
export interface Engine<Id extends EngineId = EngineId, Raw extends EngineRaw = RawParts[Id]> {
  readonly id: Id;
  /** The installed version, known before any run (recorded even when the run fails). */
  readonly version: string;
  run(page: Page, context: EngineContext): Promise<EngineRun<Raw>>;
  /**
   * Loads what the engine needs in node before its first run, so a caller can overlap that with
   * the browser's start (the CLI does). Optional: `run` loads it anyway.
   */
  preload?(): Promise<void>;
  /**
   * Loads the engine's script into the page while the page settles (the scanner waits for the
   * network to go quiet anyway), so `run` finds it there. Optional, and only a head start: `run`
   * must load whatever is missing, since the page may have navigated in between.
   */
  prepare?(page: Page): Promise<void>;
  /** The raw part recorded for a run that threw or timed out. */
  failed(error: string): Raw;
  /** The raw output of a run that succeeded as findings in the shared shape. */
  normalize(raw: Raw): Finding[];
  counts(raw: Raw): EngineCounts;
  /** WCAG success criterion -> the engine's rules that can fail it (VPAT coverage). */
  coverage(): Record<string, string[]>;
}

/**
 * Any engine, whatever its raw output. Methods (not function properties) make an engine with a
 * narrower raw type fit here.
 */
export type AnyEngine = Engine<EngineId, EngineRaw>;
