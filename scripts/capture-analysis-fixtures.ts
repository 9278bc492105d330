/**
 * Captures real raw output of the three engines on the analysis fixture pages
 * (src/scanner/analysis/__fixtures__/pages/*.html) into __fixtures__/<page>.raw.json, so the
 * analysis tests run on what the engines actually say. Rerun after an engine upgrade:
 *
 *   npx tsx scripts/capture-analysis-fixtures.ts
 */
import { readdirSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RawScanResult } from '#contract/index.js';
import { launchChromium } from '#scanner/browser-launch.js';
import { engines, engineRunOrder } from '#scanner/engines/registry.js';
import type { RawParts } from '#scanner/engines/engine.js';
import { startStaticServer } from '../test/support/static-server.js';

const dir = fileURLToPath(new URL('../src/scanner/analysis/__fixtures__/', import.meta.url));
const pagesDir = join(dir, 'pages');
const viewport = { width: 1280, height: 800 };

const server = await startStaticServer(pagesDir);
const chromium = await launchChromium();
try {
  for (const file of readdirSync(pagesDir)
    .filter((f) => f.endsWith('.html'))
    .sort()) {
    const url = `${server.url}/${file}`;
    const page = await chromium.browser.newPage();
    await page.setViewport(viewport);
    await page.goto(url, { waitUntil: 'load' });
    const parts: Partial<RawParts> = {};
    const times = { load: 0, axe: 0, pa11y: 0, ibm: 0, total: 0 };
    for (const id of engineRunOrder()) {
      const run = await engines[id].run(page, {
        browser: chromium.browser,
        url,
        viewport,
        level: 'AA',
      });
      (parts as Record<string, unknown>)[id] = run.raw;
    }
    await page.close();
    const raw: RawScanResult = {
      meta: {
        // Port-free so fixtures do not change with every capture.
        url: `http://127.0.0.1/${file}`,
        scanId: `fixture-${basename(file, '.html')}`,
        timestamp: '2025-01-01T00:00:00.000Z',
        processingTimes: times,
      },
      axeRaw: parts.axe!,
      pa11yRaw: parts.pa11y!,
      ibmRaw: parts.ibm!,
    };
    const out = join(dir, `${basename(file, '.html')}.raw.json`);
    writeFileSync(out, `${JSON.stringify(raw, null, 1)}\n`);
    console.log(
      `${file}: axe ${raw.axeRaw.violations.length} rules, pa11y ${raw.pa11yRaw.issues.length} issues, ibm ${raw.ibmRaw.report.results.length} results`,
    );
  }
} finally {
  await chromium.close();
  await server.close();
}
