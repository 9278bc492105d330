import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { Browser, CDPSession, HTTPRequest, Page } from 'puppeteer-core';
import {
  type AxeRaw,
  type ElementBox,
  type EngineId,
  type IbmRaw,
  type OwnEngineRaw,
  type Pa11yRaw,
  type ProcessingTimes,
  type RawScanResult,
  type Screenshot,
} from '#contract/index.js';
import { delay, throwIfAborted, untilAborted, withTimeout } from './abort.js';
import { analyzeFindings, normalizeOutputs, type EngineOutputs } from './analysis/index.js';
import { locateElements, withBoxes } from './element-boxes.js';
import { fingerprintFromHtml, readElementFacts, type ElementFacts } from './element-facts.js';
import type { AnyEngine } from './engines/engine.js';
import { builtInEngines, getEngine, type EngineRegistry } from './engines/registry.js';
import { egressFailure } from './net/egress-proxy.js';
import { watchNetwork, type NetworkWatch } from './net/network-quiet.js';
import { PageActionError, runPageActions } from './page-actions.js';
import { readRenderHash } from './render-hash.js';
import { takeScreenshots } from './screenshots.js';
import type {
  PagePool,
  PageUnchanged,
  ScannedPage,
  ScanOptions,
  ScanProgressEvent,
} from './types.js';
import {
  assertPublicTarget,
  installRequestGuard,
  normalizeTargetUrl,
  type RequestGuard,
  type UrlSafetyOptions,
} from './url-safety.js';

export const scanDefaults = {
  timeoutMs: 60_000,
  engineTimeoutMs: 30_000,
  viewport: { width: 1280, height: 1024 },
  /** After `load`, wait for the network to go quiet, but never longer than this. */
  networkQuietCapMs: 2_000,
  networkQuietMs: 300,
} as const;

/** The page could not be loaded: refused address, network error, HTTP error or missing selector. */
export class PageLoadError extends Error {
  override name = 'PageLoadError';
}

/**
 * The browser went away under the scan: its tab's renderer crashed, or Chromium crashed, was
 * killed or lost its connection. Not the page's fault as far as we can tell, so worth another try.
 */
export class BrowserCrashError extends Error {
  override name = 'BrowserCrashError';
}

/** The whole-page budget (`timeoutMs`) ran out. */
export class ScanTimeoutError extends Error {
  override name = 'TimeoutError';
}

/** Everything the steps of one scan share. */
interface ScanState {
  readonly url: URL;
  readonly options: ScanOptions;
  /** The selected engines in run order. */
  readonly engines: AnyEngine[];
  readonly scanId: string;
  readonly startedAt: Date;
  readonly started: number;
  /** Aborts on user abort or when the page budget runs out. */
  signal: AbortSignal;
  page?: Page;
  browser?: Browser;
  /** Opened before any engine runs: a session cannot attach to a renderer stuck in a loop. */
  cdp?: CDPSession;
  guard?: RequestGuard;
  /** This scan's requests in flight, from before the navigation on. */
  network?: NetworkWatch;
  onCrash?: () => void;
  onDisconnect?: () => void;
  finalUrl: string;
  title: string;
  /** What the engines would read, hashed after load, settling and actions. */
  renderHash: string;
  /** The caller's `reuseWhen` said the page is as it was: no engine runs. */
  unchanged: boolean;
  times: ProcessingTimes;
  engineVersions: Partial<Record<EngineId, string>>;
  engineErrors: Partial<Record<EngineId, string>>;
  raw: EngineOutputs;
  screenshots: Screenshot[];
  /** Read from the page after the engines, when the scan ignores areas or wants fingerprints. */
  facts?: ElementFacts;
  /** Adds the caller's headers to the page's own requests; taken off when the scan ends. */
  onHeaders?: (request: HTTPRequest) => void;
  /** Each finding's element box at screenshot time, by selector. */
  boxes: Map<string, ElementBox>;
}

/**
 * Scans one page: one navigation, then every selected engine on that same page (each with its own
 * timeout; a failing engine is recorded and the others still count), screenshots, analysis.
 * Rejects with UrlSafetyError, PageLoadError, BrowserCrashError, ScanTimeoutError, or the abort
 * reason. Ignores `reuseWhen`: the page is always tested.
 */
export async function scanPage(
  pool: PagePool,
  input: string,
  options: ScanOptions = {},
): Promise<ScannedPage> {
  const outcome = await runScan(pool, input, { ...options, reuseWhen: undefined });
  if ('unchanged' in outcome) throw new Error('A page scan without reuseWhen reused a page.');
  return outcome;
}

/**
 * Like `scanPage`, but once the page has loaded, settled and run its actions, asks
 * `options.reuseWhen` whether it is as the last audit saw it (by its render hash). When it says
 * yes, no engine runs and no screenshot is taken: the answer is `PageUnchanged`, and the caller
 * keeps the findings it already has.
 */
export async function scanPageUnlessUnchanged(
  pool: PagePool,
  input: string,
  options: ScanOptions = {},
): Promise<ScannedPage | PageUnchanged> {
  return runScan(pool, input, options);
}

/** The versions a scan with these engines would record now (a scanner upgrade changes them). */
export function engineVersionsOf(
  engines?: readonly EngineId[],
  registry: EngineRegistry = builtInEngines,
): Partial<Record<EngineId, string>> {
  return Object.fromEntries(
    registry.runOrder(engines).map((engine) => [engine.id, engine.version]),
  );
}

async function runScan(
  pool: PagePool,
  input: string,
  options: ScanOptions,
): Promise<ScannedPage | PageUnchanged> {
  const url = normalizeTargetUrl(input);
  const state = newState(url, options);
  throwIfAborted(state.signal);
  report(state, { stage: 'loading', percent: 0, message: `Checking ${url.href}` });
  await assertPublicTarget(url, safetyOptions(options));

  await pool.withPage(async (page, browser) => {
    // The page budget starts with the tab, not while waiting for one.
    const budget = startBudget(state, options.timeoutMs ?? scanDefaults.timeoutMs);
    Object.assign(state, { page, browser });
    try {
      await step(state, watchTab);
      await step(state, prepareTab);
      await step(state, navigate);
      await step(state, settle);
      await step(state, runActions);
      await step(state, readPage);
      await step(state, hashRendering);
      await step(state, askReuse);
      if (state.unchanged) return;
      await step(state, runEngines);
      await step(state, readFacts);
      await step(state, captureScreenshots);
    } finally {
      budget.stop();
      await cleanUp(state);
    }
  }, options.signal);

  if (state.unchanged) {
    state.times.total = elapsed(state.started);
    report(state, { stage: 'done', percent: 100, message: `Unchanged: ${state.finalUrl}` });
    return {
      unchanged: true,
      renderHash: state.renderHash,
      finalUrl: state.finalUrl,
      title: state.title,
      times: { load: state.times.load, total: state.times.total },
    };
  }
  return finish(state);
}

/**
 * The engines, facts and result part of a scan, on a page its caller loaded (a test's page, after
 * its own navigation, login and clicks): no navigation, settling, actions, address rules, headers,
 * cookies or screenshots, and the page keeps its viewport (`options.viewport` must be the one it
 * has). For the library API (src/library); `options.screenshots`, `actions` and the load options
 * are ignored.
 */
export async function scanLoadedPage(
  page: Page,
  browser: Browser,
  options: ScanOptions & { viewport: { width: number; height: number } },
): Promise<ScannedPage> {
  const state = newState(new URL(page.url()), options);
  throwIfAborted(state.signal);
  const budget = startBudget(state, options.timeoutMs ?? scanDefaults.timeoutMs);
  Object.assign(state, { page, browser });
  try {
    await step(state, watchTab);
    await step(state, readPage);
    await step(state, hashRendering);
    await step(state, runEngines);
    await step(state, readFacts);
  } finally {
    budget.stop();
    await cleanUp(state);
  }
  return finish(state);
}

function newState(url: URL, options: ScanOptions): ScanState {
  return {
    url,
    options,
    engines: (options.engineRegistry ?? builtInEngines).runOrder(options.engines),
    scanId: options.scanId ?? randomUUID(),
    startedAt: new Date(),
    started: performance.now(),
    signal: options.signal ?? new AbortController().signal,
    finalUrl: url.href,
    title: '',
    renderHash: '',
    unchanged: false,
    times: { load: 0, axe: 0, pa11y: 0, ibm: 0, total: 0 },
    engineVersions: {},
    engineErrors: {},
    raw: {},
    screenshots: [],
    boxes: new Map(),
  };
}

function finish(state: ScanState): ScannedPage {
  report(state, { stage: 'analyzing', percent: 95, message: 'Merging and scoring findings' });
  const result = buildResult(state);
  report(state, { stage: 'done', percent: 100, message: `Scanned ${state.finalUrl}` });
  return result;
}

/**
 * Listens for the tab's and the browser's end, and opens the session that can stop a script
 * looping in the page. A crashed renderer answers nothing; without this every engine would wait
 * for its timeout. The session is opened before any engine runs: it cannot attach to a renderer
 * stuck in a loop.
 */
async function watchTab(state: ScanState): Promise<void> {
  const page = state.page!;
  const crashed = new AbortController();
  state.onCrash = () =>
    crashed.abort(new BrowserCrashError('The page crashed its browser tab (out of memory?).'));
  state.onDisconnect = () => crashed.abort(browserGone());
  page.once('error', state.onCrash);
  state.browser!.once('disconnected', state.onDisconnect);
  state.signal = AbortSignal.any([state.signal, crashed.signal]);
  state.cdp = await page.createCDPSession();
}

async function prepareTab(state: ScanState): Promise<void> {
  const page = state.page!;
  await page.setViewport(viewportOf(state.options));
  // Engines are injected as page scripts; a strict Content-Security-Policy must not stop them.
  await page.setBypassCSP(true);
  state.guard = await installRequestGuard(page, safetyOptions(state.options));
  const { headers, cookies } = state.options;
  if (headers && Object.keys(headers).length > 0) {
    // Only to the page's own origin: a login token must not travel to every CDN and analytics
    // host the page loads from (Chromium's extra headers would send it everywhere).
    const origin = state.url.origin;
    const extra = Object.fromEntries(
      Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]),
    );
    state.onHeaders = (request) => {
      if (request.isInterceptResolutionHandled()) return;
      const overrides = request.continueRequestOverrides();
      // The request guard continues with these same overrides, or aborts above this priority.
      void request
        .continue(
          originOf(request.url()) === origin
            ? { ...overrides, headers: { ...request.headers(), ...extra } }
            : overrides,
          0,
        )
        .catch(() => undefined);
    };
    await page.setRequestInterception(true);
    page.on('request', state.onHeaders);
  }
  if (cookies && cookies.length > 0) {
    // The tab's own browser context: the pool clears its cookies when the tab is returned.
    await page.browserContext().setCookie(
      ...cookies.map((cookie) => ({
        ...cookie,
        domain: cookie.domain ?? state.url.hostname,
        path: cookie.path ?? '/',
      })),
    );
  }
}

/** The page's own actions (log in, open a menu), after it settled and before any engine. */
async function runActions(state: ScanState): Promise<void> {
  const actions = state.options.actions ?? [];
  if (actions.length === 0) return;
  const started = performance.now();
  try {
    await runPageActions(state.page!, actions, {
      signal: state.signal,
      checkUrl: async (url) => {
        await assertPublicTarget(normalizeTargetUrl(url), safetyOptions(state.options));
      },
    });
  } catch (error) {
    throwIfAborted(state.signal);
    throw (
      crashOf(state) ??
      (error instanceof PageActionError ? error : new PageActionError(messageOf(error)))
    );
  } finally {
    state.times.load += elapsed(started);
  }
}

/** Where the findings' elements sit: in an ignored area, and their fingerprints. */
async function readFacts(state: ScanState): Promise<void> {
  const ignoreSelectors = state.options.ignore?.selectors ?? [];
  if (ignoreSelectors.length === 0 && !state.options.fingerprints) return;
  const findings = normalizeOutputs(
    state.raw,
    state.engines.map((engine) => engine.id),
    state.options.engineRegistry,
  );
  try {
    state.facts = await readElementFacts(
      state.page!,
      findings.map((finding) => finding.selector),
      ignoreSelectors,
    );
  } catch (error) {
    throwIfAborted(state.signal);
    const crash = crashOf(state);
    if (crash) throw crash;
    // Without facts, fingerprints come from the engines' HTML snippets; but leaving an ignored
    // area in the results would be wrong, so that fails the scan with the reason.
    if (ignoreSelectors.length > 0) {
      throw new PageLoadError(`Could not check the ignored areas: ${messageOf(error)}`);
    }
  }
}

async function navigate(state: ScanState): Promise<void> {
  const page = state.page!;
  const started = performance.now();
  state.network = watchNetwork(page);
  let response;
  try {
    response = await page.goto(state.url.href, { waitUntil: 'load', timeout: 0 });
  } catch (error) {
    const refused = state.guard?.blocked.find((request) => request.navigation);
    if (refused) throw new PageLoadError(refused.message);
    // "Navigating frame was detached" from a dead browser is not the page failing to load.
    throw (
      crashOf(state) ?? new PageLoadError(`Could not load ${state.url.href}: ${messageOf(error)}`)
    );
  } finally {
    state.times.load = elapsed(started);
  }
  const unreachable = response ? egressFailure(response) : undefined;
  if (unreachable) throw new PageLoadError(`Could not load ${state.url.href}: ${unreachable}`);
  if (response && response.status() >= 400) {
    throw new PageLoadError(
      `${state.url.href} answered HTTP ${response.status()} ${response.statusText()}`.trim(),
    );
  }
}

/**
 * Gives late scripts a moment (network quiet, capped), then what a single-page app asked for. The
 * engines load their scripts into the page meanwhile: the wait is idle time, and parsing an
 * engine's source is a good part of its run on a small page. Settling never takes longer than
 * the cap for that: a preparation still running then (a page that makes an engine's script hang)
 * is stopped, and the engine's run meets the hang under its own timeout.
 */
async function settle(state: ScanState): Promise<void> {
  const page = state.page!;
  const started = performance.now();
  const quietCapMs = state.options.networkQuietCapMs ?? scanDefaults.networkQuietCapMs;
  if (quietCapMs > 0) {
    const quietMs = Math.min(scanDefaults.networkQuietMs, quietCapMs);
    const leftOfCap = () => Math.max(0, quietCapMs - (performance.now() - started));
    const preparing = prepareEngines(state);
    await state.network!.quiet(quietMs, quietCapMs);
    const preparedAt = await withTimeout(preparing, leftOfCap()).catch(() => undefined);
    if (preparedAt === undefined) {
      await stopPageScripts(state);
    } else if (preparedAt - started >= quietMs && leftOfCap() > 0) {
      // The page's own timers could not run while an engine's source was being parsed, and that
      // took as long as the quiet window: the timers that were due run now, so the network gets a
      // quiet window of its own after them.
      await state.network!.quiet(quietMs, leftOfCap());
    }
  }
  const { waitForSelector, waitMs } = state.options;
  if (waitForSelector) {
    try {
      await page.waitForSelector(waitForSelector, { timeout: 0, signal: state.signal });
    } catch (error) {
      throwIfAborted(state.signal);
      throw new PageLoadError(`Waiting for "${waitForSelector}" failed: ${messageOf(error)}`);
    }
  }
  if (waitMs) await delay(waitMs, state.signal);
  state.times.load += elapsed(started);
}

/**
 * Runs each selected engine's `prepare` on the page, one after another (they share the page's
 * main thread). Resolves with the time it finished; a failure is left for the engine's run to
 * meet and record. Not on pages with actions: they may navigate, and the work would be lost.
 * Not when the caller may reuse the page's findings either: most monitored pages are unchanged,
 * and parsing engine sources for a page no engine then tests is the costliest part of its visit.
 */
async function prepareEngines(state: ScanState): Promise<number> {
  if ((state.options.actions ?? []).length === 0 && !state.options.reuseWhen) {
    for (const engine of state.engines) {
      if (state.signal.aborted) break;
      await engine.prepare?.(state.page!).catch(() => undefined);
    }
  }
  return performance.now();
}

async function readPage(state: ScanState): Promise<void> {
  const page = state.page!;
  state.finalUrl = page.url();
  state.title = await page.title();
}

/** One call into the page, hashed here: cheap next to any engine run. */
async function hashRendering(state: ScanState): Promise<void> {
  const started = performance.now();
  try {
    state.renderHash = await readRenderHash(state.page!, {
      viewport: viewportOf(state.options),
      level: state.options.level ?? 'AA',
      engines: state.engines.map((engine) => engine.id),
    });
  } finally {
    state.times.load += elapsed(started);
  }
}

async function askReuse(state: ScanState): Promise<void> {
  const { reuseWhen } = state.options;
  if (!reuseWhen) return;
  state.unchanged = await reuseWhen({
    renderHash: state.renderHash,
    finalUrl: state.finalUrl,
    title: state.title,
  });
}

async function runEngines(state: ScanState): Promise<void> {
  const page = state.page!;
  const context = {
    browser: state.browser!,
    url: state.finalUrl,
    viewport: viewportOf(state.options),
    level: state.options.level ?? 'AA',
    engines: state.engines.map((engine) => engine.id),
  };
  const timeoutMs = state.options.engineTimeoutMs ?? scanDefaults.engineTimeoutMs;
  for (const [index, engine] of state.engines.entries()) {
    const id = engine.id;
    report(state, {
      stage: 'engine',
      engine: id,
      percent: Math.round(10 + (75 * index) / state.engines.length),
      message: `Running ${id}`,
    });
    const started = performance.now();
    try {
      const run = await withTimeout(
        engine.run(page, context),
        timeoutMs,
        `${id} did not finish within ${timeoutMs} ms`,
      );
      state.raw[id] = run.raw;
      state.engineVersions[id] = run.version;
    } catch (error) {
      throwIfAborted(state.signal);
      const crash = crashOf(state);
      if (crash) throw crash;
      state.engineErrors[id] = messageOf(error);
      state.raw[id] = engine.failed(messageOf(error));
      state.engineVersions[id] = engine.version;
      // A timed-out engine may still be running in the page; stop it so the next one can start.
      await stopPageScripts(state);
    } finally {
      state.times[id] = elapsed(started);
    }
  }
}

async function captureScreenshots(state: ScanState): Promise<void> {
  const wanted = state.options.screenshots ?? true;
  const kinds = wanted === true ? undefined : wanted === false ? [] : wanted;
  if (kinds?.length === 0) return;
  report(state, { stage: 'screenshots', percent: 88, message: 'Taking screenshots' });
  try {
    // Read right before the shots, so the outlines a report draws over them line up.
    const selectors = normalizeOutputs(
      state.raw,
      state.engines.map((engine) => engine.id),
      state.options.engineRegistry,
    ).map((finding) => finding.selector);
    state.boxes = await locateElements(state.page!, selectors, viewportOf(state.options).width);
  } catch {
    throwIfAborted(state.signal);
    state.boxes = new Map();
  }
  try {
    state.screenshots = await takeScreenshots(
      state.page!,
      viewportOf(state.options),
      undefined,
      kinds,
    );
  } catch {
    throwIfAborted(state.signal);
    // Screenshots illustrate a report; a page that cannot be captured still gets its findings.
    state.screenshots = [];
  }
}

/** Each part is bounded: on a crashed tab these calls may never be answered. */
async function cleanUp(state: ScanState): Promise<void> {
  if (state.onCrash) state.page?.off('error', state.onCrash);
  if (state.onDisconnect) state.browser?.off('disconnected', state.onDisconnect);
  // A crashed tab answers nothing; the pool throws it away.
  if (crashOf(state)) return;
  const bounded = (work: Promise<unknown> | undefined) =>
    work && withTimeout(work, cleanupTimeoutMs, 'cleanup timed out').catch(() => undefined);
  // An abort can land while an engine loops in the page; the tab reset needs it stopped first.
  if (state.signal.aborted) await bounded(stopPageScripts(state));
  state.network?.dispose();
  if (state.onHeaders) state.page?.off('request', state.onHeaders);
  await bounded(state.guard?.dispose());
  // Turned on for the headers alone when the guard had nothing to intercept.
  if (state.onHeaders) await bounded(state.page?.setRequestInterception(false));
  await bounded(state.cdp?.detach());
}

const cleanupTimeoutMs = 2_000;

/** The raw part of an engine the caller did not select: it did not run, so it has no findings. */
const notSelected = 'Not run: engine not selected for this scan.';

function buildResult(state: ScanState): ScannedPage {
  state.times.total = elapsed(state.started);
  const raw: RawScanResult = {
    meta: {
      url: state.finalUrl,
      scanId: state.scanId,
      timestamp: state.startedAt.toISOString(),
      processingTimes: state.times,
    },
    // The spec's names for the parts; the engines' outputs are kept by engine id until here.
    axeRaw: (state.raw.axe as AxeRaw | undefined) ?? getEngine('axe').failed(notSelected),
    pa11yRaw: (state.raw.pa11y as Pa11yRaw | undefined) ?? getEngine('pa11y').failed(notSelected),
    ibmRaw: (state.raw.ibm as IbmRaw | undefined) ?? getEngine('ibm').failed(notSelected),
    // Conformly's own engines appear only when they ran.
    ...(state.raw.checks ? { checksRaw: state.raw.checks as OwnEngineRaw } : {}),
    ...(state.raw.keyboard ? { keyboardRaw: state.raw.keyboard as OwnEngineRaw } : {}),
    ...(state.raw.behaviour ? { behaviourRaw: state.raw.behaviour as OwnEngineRaw } : {}),
  };
  const engines = state.engines.map((engine) => engine.id);
  const { issues, summary, score } = analyzeFindings(
    keptFindings(state, engines),
    engines,
    state.options.ignore?.rules ?? [],
  );
  if (state.options.fingerprints) {
    for (const issue of issues) {
      issue.fingerprint = issue.selector
        ? (state.facts?.fingerprints.get(issue.selector) ?? fingerprintFromHtml(issue.html))
        : '(page)';
    }
  }
  return {
    url: state.url.href,
    finalUrl: state.finalUrl,
    title: state.title,
    startedAt: state.startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    engines,
    level: state.options.level ?? 'AA',
    engineVersions: state.engineVersions,
    engineErrors: state.engineErrors,
    processingTimes: state.times,
    issues: issues.map((issue) => ({ ...issue, findings: withBoxes(issue.findings, state.boxes) })),
    summary,
    score,
    screenshots: state.screenshots,
    raw,
    renderHash: state.renderHash,
  };
}

/** Every selected engine's findings, less those on elements inside an ignored area. */
function keptFindings(state: ScanState, engines: readonly EngineId[]) {
  const findings = normalizeOutputs(state.raw, engines, state.options.engineRegistry);
  const ignored = state.facts?.ignored;
  if (!ignored || ignored.size === 0) return findings;
  return findings.filter((finding) => !ignored.has(finding.selector));
}

/* ---------- plumbing shared by the steps ---------- */

function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

function viewportOf(options: ScanOptions): { width: number; height: number } {
  return options.viewport ?? scanDefaults.viewport;
}

function safetyOptions(options: ScanOptions): UrlSafetyOptions {
  return {
    allowPrivateNetwork: options.allowPrivateNetwork,
    allowedPrivateOrigins: options.allowedPrivateOrigins,
  };
}

/** Runs one step, but stops waiting for it as soon as the scan is aborted or out of time. */
async function step(state: ScanState, run: (state: ScanState) => Promise<void>): Promise<void> {
  throwIfAborted(state.signal);
  try {
    await untilAborted(run(state), state.signal);
  } catch (error) {
    // A dead browser fails whatever call was in flight ("Target closed", "Session closed"...).
    throw crashOf(state) ?? error;
  }
}

/** The crash that ended this scan's tab or browser, if one did. */
function crashOf(state: ScanState): BrowserCrashError | undefined {
  if (state.signal.reason instanceof BrowserCrashError) return state.signal.reason;
  if (state.browser && !state.browser.connected) return browserGone();
  return undefined;
}

function browserGone(): BrowserCrashError {
  return new BrowserCrashError(
    'The browser stopped during the scan (crashed, killed or disconnected).',
  );
}

function startBudget(state: ScanState, timeoutMs: number): { stop(): void } {
  const controller = new AbortController();
  const timer = setTimeout(
    () =>
      controller.abort(
        new ScanTimeoutError(`The page scan took longer than ${timeoutMs} ms and was stopped.`),
      ),
    timeoutMs,
  );
  state.signal = AbortSignal.any([state.signal, controller.signal]);
  return { stop: () => clearTimeout(timer) };
}

/**
 * Ends whatever script the page is running (an engine stuck in a loop would otherwise block the
 * next engine, the screenshots and the tab reset), then makes sure the page answers again.
 */
async function stopPageScripts(state: ScanState): Promise<void> {
  if (!state.cdp || !state.page || state.page.isClosed()) return;
  await state.cdp.send('Runtime.terminateExecution').catch(() => undefined);
  await withTimeout(state.page.evaluate('0'), 2_000, 'page unresponsive').catch(() => undefined);
}

function report(state: ScanState, event: ScanProgressEvent): void {
  try {
    state.options.onProgress?.(event);
  } catch {
    // A failing progress listener (a closed SSE stream, say) must not fail the scan itself.
  }
}

function elapsed(since: number): number {
  return Math.round(performance.now() - since);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
