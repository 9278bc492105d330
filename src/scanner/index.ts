/**
 * The scanner library: everything the CLI, the job workers and the benchmarks use. Nothing here
 * imports the server, database or web app.
 */
export type { PagePool, PoolStats, ScanOptions, ScanProgressEvent, ScanStage } from './types.js';
export { findChromium, chromiumCandidates, ChromiumNotFoundError } from './chromium-path.js';
export { launchChromium, chromiumArgs, type LaunchedChromium } from './browser-launch.js';
export {
  createPagePool,
  defaultPoolSize,
  PoolClosedError,
  type PagePoolOptions,
} from './browser-pool.js';
export {
  scanPage,
  scanDefaults,
  BrowserCrashError,
  PageLoadError,
  ScanTimeoutError,
} from './scan-page.js';
export { takeScreenshots, defaultScreenshotLimits, type ScreenshotLimits } from './screenshots.js';
export { engines, getEngine, engineRunOrder } from './engines/registry.js';
export type { Engine, EngineContext, EngineRun, RawParts } from './engines/engine.js';
export { axeTags } from './engines/axe.js';
export { ibmPolicy } from './engines/ibm.js';
export {
  normalizeTargetUrl,
  assertPublicTarget,
  installRequestGuard,
  UrlSafetyError,
  type RequestGuard,
  type UrlSafetyOptions,
} from './url-safety.js';
export { analyzeRawResult, type PageAnalysis } from './analysis/index.js';
