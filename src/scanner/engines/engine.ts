import type { Browser, Page } from 'puppeteer-core';
import type { AxeRaw, EngineId, IbmRaw, Pa11yRaw } from '../../contract/index.js';

/** Each engine's part of the spec's raw result, by engine id. */
export interface RawParts {
  axe: AxeRaw;
  pa11y: Pa11yRaw;
  ibm: IbmRaw;
}

export interface EngineContext {
  browser: Browser;
  /** The URL the page ended up on after redirects. */
  url: string;
  /** The viewport the page was loaded with; engines that set one must keep it. */
  viewport: { width: number; height: number };
}

export interface EngineRun<R> {
  raw: R;
  /** The version that actually ran, e.g. axe-core "4.14.1". */
  version: string;
}

/**
 * One accessibility engine run on an already loaded page. `run` must not navigate: all engines
 * share one page load. Turning raw output into Findings is analysis's job, not the engine's.
 */
export interface Engine<Id extends EngineId = EngineId> {
  readonly id: Id;
  /** The installed version, known before any run (recorded even when the run fails). */
  readonly version: string;
  run(page: Page, context: EngineContext): Promise<EngineRun<RawParts[Id]>>;
  /** The raw part recorded for a run that threw or timed out. */
  failed(error: string): RawParts[Id];
}
