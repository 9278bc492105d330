import type { Browser, Page } from 'puppeteer-core';
import type { ConformanceLevel, EngineId, PageScanResult, Screenshot } from '#contract/index.js';
import type { EngineRegistry } from './engines/registry.js';
import type { PageAction } from './page-actions.js';

/** A cookie set before the page loads; domain defaults to the page's host, path to `/`. */
export interface ScanCookie {
  name: string;
  value: string;
  domain?: string;
  path?: string;
  secure?: boolean;
  httpOnly?: boolean;
  sameSite?: 'Strict' | 'Lax' | 'None';
}

/** A kind of page screenshot: the first screenful, or the whole page at half scale. */
export type ScreenshotKind = Screenshot['kind'];

/** What a caller can set for one page scan. Every field has a working default. */
export interface ScanOptions {
  /** The WCAG level to test, default AA; AAA adds the engines' AAA rules. */
  level?: ConformanceLevel;
  /** Engines to run, default every engine of the registry. */
  engines?: readonly EngineId[];
  /** The engines to choose from, default the product's own (tests add a fake one here). */
  engineRegistry?: EngineRegistry;
  /** Whole-page budget in ms (navigation + engines), default 60 000. */
  timeoutMs?: number;
  /** Per-engine budget in ms, default 30 000. */
  engineTimeoutMs?: number;
  /** Wait for this CSS selector after load (single-page apps). */
  waitForSelector?: string;
  /** Extra delay in ms after load (single-page apps). */
  waitMs?: number;
  /**
   * After `load`, how long to wait at most for the network to go quiet (late scripts, lazy
   * content). Default 2 000; 0 skips the wait (static pages, the ACT corpus).
   */
  networkQuietCapMs?: number;
  /** Allow loopback/private/link-local targets. Off by default; tests and local use only. */
  allowPrivateNetwork?: boolean;
  /** Private origins (scheme://host:port) allowed one by one, e.g. an intranet host. */
  allowedPrivateOrigins?: string[];
  /**
   * Screenshots to take: true (the default) for the one shot the service shows, the half-scale
   * full page (reports draw element outlines on it, the live scan shows its top); false for none;
   * or the kinds a caller's output shows, e.g. `['viewport']` for the first screenful at full
   * scale. Each shot costs CPU (about 0.2-0.3 s a page), so take only what is shown.
   */
  screenshots?: boolean | readonly ScreenshotKind[];
  /** Browser window size, default 1280 x 1024. */
  viewport?: { width: number; height: number };
  /** HTTP headers sent with every request to the page's own origin (e.g. a login token). */
  headers?: Readonly<Record<string, string>>;
  /** Cookies set before the page loads (e.g. a session for pages behind a login). */
  cookies?: readonly ScanCookie[];
  /** What a person does on the page after it loaded and before the engines test it. */
  actions?: readonly PageAction[];
  /**
   * Findings to leave out, before merging and scoring: `rules` by rule key or engine rule id
   * (an issue any of whose rules matches is dropped whole, case-insensitively), `selectors`
   * by area (a finding on an element inside an element matching one of them, like pa11y's
   * `hideElements`).
   */
  ignore?: { rules?: readonly string[]; selectors?: readonly string[] };
  /** Give each issue its element fingerprint (baselines). */
  fingerprints?: boolean;
  /** Abort the scan (user abort or job cancel). */
  signal?: AbortSignal;
  /** Scan id written into the raw result's meta; generated when absent. */
  scanId?: string;
  /** Progress callback: stage and engine as they happen (live progress screens). */
  onProgress?: (event: ScanProgressEvent) => void;
  /**
   * Asked by `scanPageUnlessUnchanged` after load, settling and actions: true when the page is
   * as a previous scan saw it (same render hash), so that scan's findings stand and no engine
   * runs. `scanPage` ignores it.
   */
  reuseWhen?: (seen: PageSeen) => boolean | Promise<boolean>;
}

/** The page as loaded, before any engine: what decides whether earlier findings still stand. */
export interface PageSeen {
  renderHash: string;
  finalUrl: string;
  title: string;
}

/** A scanned page; the render hash is always set by this scanner (optional in stored results). */
export type ScannedPage = PageScanResult & { renderHash: string };

/** `scanPageUnlessUnchanged`'s answer when the page was as before: no engine ran. */
export interface PageUnchanged {
  unchanged: true;
  renderHash: string;
  finalUrl: string;
  title: string;
  times: { load: number; total: number };
}

export type ScanStage = 'loading' | 'engine' | 'analyzing' | 'screenshots' | 'done';

export interface ScanProgressEvent {
  stage: ScanStage;
  engine?: EngineId;
  /** 0-100 over the whole page scan. */
  percent: number;
  message: string;
}

export interface PoolStats {
  available: number;
  active: number;
  total: number;
}

/** One Chromium, N reusable tabs. */
export interface PagePool {
  /** Borrow a tab for the duration of `fn`; the tab is reset and returned afterwards. */
  withPage<T>(fn: (page: Page, browser: Browser) => Promise<T>, signal?: AbortSignal): Promise<T>;
  stats(): PoolStats;
  close(): Promise<void>;
}
