import { performance } from 'node:perf_hooks';

/**
 * What `conformly scan` pays before and after its one page: node boot with the tsx loader (the CLI
 * runs from source), loading the CLI and scanner modules, launching Chromium, closing it. Part (a)
 * runs this beside each measured scan so the one-page wall clock can be split into startup and scan.
 * performance.now() counts from process start, so the first reading is the boot time.
 */
const bootMs = performance.now();
await import('../../src/cli/main.js');
const { launchChromium } = await import('../../src/scanner/index.js');
await import('../../src/cli/commands/scan.js');
const importedAt = performance.now();
const chromium = await launchChromium();
const page = await chromium.browser.newPage();
await page.goto('about:blank');
const launchedAt = performance.now();
await chromium.close();
const closedAt = performance.now();
process.stdout.write(
  `${JSON.stringify({
    bootMs: Math.round(bootMs),
    importMs: Math.round(importedAt - bootMs),
    launchMs: Math.round(launchedAt - importedAt),
    closeMs: Math.round(closedAt - launchedAt),
  })}\n`,
);
