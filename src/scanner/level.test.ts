import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSharedPagePool } from '../../test/support/browser.js';
import { startStaticServer, type TestServer } from '../../test/support/static-server.js';
import { fixtureSiteRoot } from '../../test/scanner/expectations.js';
import { scanPage } from './scan-page.js';
import type { PagePool } from './types.js';

/**
 * Grey #666 on white is 5.7:1: enough for AA (4.5:1), not for AAA (7:1). The page is otherwise
 * clean, so what a level adds shows alone.
 */
const page = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Notes</title></head>
<body><main><h1>Notes</h1><p style="color:#666;background:#fff">Opening hours change in winter.</p></main></body></html>`;

let site: TestServer;
let pool: PagePool;

beforeAll(async () => {
  site = await startStaticServer(fixtureSiteRoot, {
    routes: {
      '/grey.html': (_req, res) =>
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page),
    },
  });
  pool = createSharedPagePool({ size: 1 });
});
afterAll(async () => {
  await pool?.close();
  await site?.close();
});

const options = { allowPrivateNetwork: true, engines: ['axe', 'pa11y'] as const };
const enhancedContrast = (issue: { wcag: string[]; kind: string }) =>
  issue.kind === 'violation' && issue.wcag.includes('1.4.6');

describe('the WCAG level a scan tests', () => {
  it('at AA (the default) passes text that meets the AA contrast minimum', async () => {
    const result = await scanPage(pool, `${site.url}/grey.html`, options);
    expect(result.level).toBe('AA');
    expect(result.issues.filter(enhancedContrast)).toEqual([]);
    expect(result.summary.totalViolations).toBe(0);
  });

  it("at AAA runs the engines' AAA rules and reports the enhanced contrast failure", async () => {
    const result = await scanPage(pool, `${site.url}/grey.html`, { ...options, level: 'AAA' });
    expect(result.level).toBe('AAA');
    const [issue] = result.issues.filter(enhancedContrast);
    expect(issue).toMatchObject({ level: 'AAA', selector: expect.stringContaining('p') });
    expect(result.score.value).toBeLessThan(100);
  });
});
