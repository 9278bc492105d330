/**
 * The scanner library: everything the CLI, the job workers and the benchmarks use. Nothing here
 * imports the server, database or web app.
 */
export type {
  PagePool,
  PageSeen,
  PageUnchanged,
  PoolStats,
  ScannedPage,
  ScanCookie,
  ScanOptions,
  ScanProgressEvent,
  ScanStage,
  ScreenshotKind,
} from './types.js';
export {
  parsePageAction,
  runPageActions,
  PageActionError,
  type PageAction,
} from './page-actions.js';
export {
  findChromium,
  chromiumCandidates,
  fullChromiumCandidates,
  headlessShellCandidates,
  isHeadlessShell,
  ChromiumNotFoundError,
} from './chromium-path.js';
export { launchChromium, chromiumArgs, type LaunchedChromium } from './browser-launch.js';
export {
  createPagePool,
  defaultPoolSize,
  defaultRecycle,
  PoolClosedError,
  type PagePoolOptions,
} from './browser-pool.js';
export {
  scanPage,
  scanPageUnlessUnchanged,
  scanLoadedPage,
  engineVersionsOf,
  scanDefaults,
  BrowserCrashError,
  PageLoadError,
  ScanTimeoutError,
} from './scan-page.js';
export { takeScreenshots, defaultScreenshotLimits, type ScreenshotLimits } from './screenshots.js';
export {
  engines,
  getEngine,
  engineRunOrder,
  builtInEngines,
  createEngineRegistry,
  countEngineRaw,
  type EngineRegistry,
} from './engines/registry.js';
export type {
  AnyEngine,
  Engine,
  EngineContext,
  EngineCounts,
  EngineRaw,
  EngineRun,
  RawParts,
} from './engines/engine.js';
export { axeTags } from './engines/axe/index.js';
export { ibmPolicy } from './engines/ibm/index.js';
export {
  normalizeTargetUrl,
  assertPublicTarget,
  installRequestGuard,
  UrlSafetyError,
  createTargetPolicy,
  type RequestGuard,
  type TargetPolicy,
  type UrlSafetyOptions,
} from './url-safety.js';
export {
  safeFetchText,
  SafeFetchError,
  type SafeFetchOptions,
  type SafeFetchResult,
} from './net/safe-fetch.js';
export { safeSend, type SafeSendOptions, type SafeSendResult } from './net/safe-send.js';
export {
  analyzeRawResult,
  analyzeOutputs,
  normalizeOutputs,
  scorePage,
  type EngineOutputs,
  type PageAnalysis,
} from './analysis/index.js';
export {
  understandingUrl,
  scHandle,
  levelOf,
  scFromAxeTags,
  sortCriteria,
} from './analysis/wcag.js';
export { discoverPages, DiscoveryError, type DiscoverOptions } from './discover/discover-pages.js';
export { readSitemaps, type SitemapHarvest } from './discover/sitemap.js';
export { pageIdentity, withoutTracking } from './discover/page-identity.js';
export {
  chooseSitePages,
  parseExcludePattern,
  ExcludePatternError,
  type SiteDiscovery,
  type SitePage,
  type SitePagesOptions,
} from './discover/site-pages.js';
