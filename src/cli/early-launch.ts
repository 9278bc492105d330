import type { LaunchOptions } from 'puppeteer-core';
import type { LaunchedChromium } from '#scanner/launch.js';

/**
 * The CLI answers SIGINT and SIGTERM itself (main.ts): it stops the scans, closes the pool and
 * writes what finished. Puppeteer's own handlers would exit on SIGINT before that, and on SIGTERM
 * kill the browser while the scans go on and relaunch it.
 */
export const cliLaunchOptions: LaunchOptions = {
  handleSIGINT: false,
  handleSIGTERM: false,
  handleSIGHUP: false,
};

/** A launch under way; in an object, so awaiting `launchEarly` does not wait for the browser. */
export interface EarlyLaunch {
  launched: Promise<LaunchedChromium>;
}

/**
 * Starts Chromium as a command that scans begins, loading only the launch (puppeteer-core and
 * the scanner's launch.ts): the rest of the scanner, the engines and the report writers load
 * while the browser starts, instead of before (docs/decisions/0027-scan-cpu.md). Resolves once
 * the launch has begun: a caller that imports the rest only then keeps that import's hundreds of
 * files from queueing ahead of puppeteer-core's (measured: the launch began 3.5 s into a cold
 * scan when both imports started together, behind every module of the scan command).
 * `tabs`: how many tabs the scan's pool will run at once, which chooses the launch's switches
 * (`launchArgsFor`: two or more tabs launch in V8's memory-saving mode).
 */
export async function launchEarly(tabs: number): Promise<EarlyLaunch> {
  const loading = import('#scanner/launch.js');
  const launched = loading.then(({ launchArgsFor, launchChromium }) =>
    launchChromium({ ...cliLaunchOptions, args: launchArgsFor(tabs) }),
  );
  // Met by the pool that takes it, or by closeUnused.
  launched.catch(() => undefined);
  // Resumes after the launch was called (its callback was registered first), or its import failed.
  await loading.catch(() => undefined);
  return { launched };
}

/** Closes an early launch that no pool took (no pages to scan, a bad config). */
export async function closeUnused(launching: Promise<LaunchedChromium> | undefined): Promise<void> {
  await launching?.then(
    (chromium) => chromium.close(),
    () => undefined,
  );
}
