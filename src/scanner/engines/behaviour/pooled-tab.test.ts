/**
 * The behaviour engine as the server runs it: TypeScript through tsx, whose build wraps named
 * inner functions in a `__name()` helper the page lacks. The CLI is run the same way over several
 * pages on one tab, so a session that failed to start and left its request guard behind would make
 * every later page fail to load.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStaticServer, type TestServer } from '../../../../test/support/static-server.js';

const fixtures = fileURLToPath(new URL('./__fixtures__/', import.meta.url));
const root = fileURLToPath(new URL('../../../../', import.meta.url));

let site: TestServer;

beforeAll(async () => {
  site = await startStaticServer(fixtures);
}, 60_000);
afterAll(async () => {
  await site?.close();
});

function conformlyThroughTsx(...args: string[]): Promise<{ code: number; stdout: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'src/cli/main.ts', ...args],
      { cwd: root, timeout: 400_000, env: { ...process.env, NO_COLOR: '1' } },
      (error, stdout) => {
        const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
        resolve({ code, stdout });
      },
    );
  });
}

describe('the behaviour engine run from TypeScript through tsx', () => {
  it('operates every page, and the tab it operated loads and scans the next ones', async () => {
    const paths = [
      'disclosure/lightbox.html',
      'context/on-focus-bad.html',
      'hover/menu-hover-only.html',
      'clean/form.html',
    ];
    const run = await conformlyThroughTsx(
      'scan',
      ...paths.map((path) => `${site.url}/${path}`),
      '--engines',
      'axe,keyboard,behaviour',
      '--concurrency',
      '1',
      '--format',
      'json',
    );
    const results = JSON.parse(run.stdout) as {
      url: string;
      engineErrors: Record<string, string>;
      issues: { ruleKey: string; engines: string[] }[];
    }[];
    expect(results.map((r) => [r.url, r.engineErrors])).toEqual(
      paths.map((path) => [`${site.url}/${path}`, {}]),
    );
    // The engine did its work, not only failed quietly: the focus that opens a window is found.
    const onFocus = results.find((r) => r.url.endsWith('on-focus-bad.html'));
    expect(onFocus?.issues.some((i) => i.engines.includes('behaviour'))).toBe(true);
  }, 420_000);
});
