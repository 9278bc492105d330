import type { Browser, Page } from 'puppeteer-core';
import type { EngineId } from '#contract/index.js';
import type { EngineRegistry } from './engines/registry.js';

/** What a caller can set for one page scan. Every field has a working default. */
export interface ScanOptions {
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
  /** Take viewport and full-page screenshots, default true. */
  screenshots?: boolean;
  /** Abort the scan (user abort or job cancel). */
  signal?: AbortSignal;
  /** Scan id written into the raw result's meta; generated when absent. */
  scanId?: string;
  /** Progress callback: stage and engine as they happen (live progress screens). */
  onProgress?: (event: ScanProgressEvent) => void;
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
