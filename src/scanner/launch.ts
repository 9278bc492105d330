/**
 * The scanner's second door, for a command's first moment: Chromium's launch alone, so a cold
 * CLI run starts the browser before the rest of the scanner (engines, analysis, reports) has
 * loaded, and hands the launch to `createPagePool({ launched })` from the main door
 * (docs/decisions/0027-scan-cpu.md). Everything else goes through index.ts.
 */
export { launchArgsFor, launchChromium, type LaunchedChromium } from './browser-launch.js';
