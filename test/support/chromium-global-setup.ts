import type { TestProject } from 'vitest/node';
import { launchChromium } from '#scanner/browser-launch.js';

/**
 * Launches the one Chromium all test files share (see test/support/browser.ts) and hands its
 * DevTools endpoint to the workers. Closed, with its profile folder, when the run ends.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // Workers connect over WebSocket, so no pipe here: puppeteer still kills this browser when
  // vitest gets SIGINT/SIGTERM/SIGHUP, but a SIGKILLed vitest leaves it running.
  const chromium = await launchChromium({ pipe: false });
  project.provide('chromiumWsEndpoint', chromium.browser.wsEndpoint());
  return () => chromium.close();
}

declare module 'vitest' {
  export interface ProvidedContext {
    chromiumWsEndpoint: string;
  }
}
