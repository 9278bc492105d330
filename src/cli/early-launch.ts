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

/**
 * Starts Chromium as a command that scans begins, loading only the launch (puppeteer-core and
 * the scanner's launch.ts): the rest of the scanner, the engines and the report writers load
 * while the browser starts, instead of before (docs/decisions/0027-scan-cpu.md).
 */
export function launchEarly(): Promise<LaunchedChromium> {
  const launching = import('#scanner/launch.js').then(({ launchChromium }) =>
    launchChromium(cliLaunchOptions),
  );
  // Met by the pool that takes it, or by closeUnused.
  launching.catch(() => undefined);
  return launching;
}

/** Closes an early launch that no pool took (no pages to scan, a bad config). */
export async function closeUnused(launching: Promise<LaunchedChromium> | undefined): Promise<void> {
  await launching?.then(
    (chromium) => chromium.close(),
    () => undefined,
  );
}
