/**
 * A CI runner cancelling a job sends SIGTERM. The package bin is spawned on two pages, one quick
 * and one whose server never finishes answering; once the quick one is done and the slow one is
 * being loaded, the run is stopped. It must write what finished and exit at once, not wait for
 * the slow page's time budget nor start another browser to carry on.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import type { ServerResponse } from 'node:http';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../test/support/static-server.js';

const bin = fileURLToPath(new URL('../../bin/conformly.js', import.meta.url));

let site: TestServer;
const hanging: ServerResponse[] = [];
/** Resolves when the slow page has been asked for since the last reset. */
let slowRequested: Promise<void>;
let requested: () => void = () => undefined;

beforeAll(async () => {
  site = await startServer((req, res) => {
    if (req.url === '/slow') {
      // Headers and the start of the page, then nothing: the load never completes.
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.write('<!doctype html><html lang="en"><head><title>Slow</title></head><body><p>');
      hanging.push(res);
      requested();
      return;
    }
    res
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      .end(
        '<!doctype html><html lang="en"><head><title>Quick</title></head><body><main><h1>Quick</h1><p>Done.</p></main></body></html>',
      );
  });
}, 30_000);

afterAll(async () => {
  for (const res of hanging) res.destroy();
  await site?.close();
});

describe('conformly stopped by a signal', () => {
  it.each([
    ['SIGTERM', 143],
    ['SIGINT', 130],
  ] as const)(
    'on %s closes the browser, writes the finished page and exits %i at once',
    async (signal, exitCode) => {
      slowRequested = new Promise((resolve) => (requested = resolve));
      const child = spawn(
        process.execPath,
        [
          bin,
          'scan',
          `${site.url}/quick`,
          `${site.url}/slow`,
          '--engines',
          'axe',
          '--concurrency',
          '2',
          // Far longer than this test may take: exiting by the page's time budget would fail it.
          '--timeout',
          '600000',
        ],
        { env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '1' } },
      );
      let stdout = '';
      let stderr = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
      const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
      const quickDone = new Promise<void>((resolve) => {
        child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
          stderr += chunk;
          if (stderr.includes(`${site.url}/quick: score`)) resolve();
        });
      });

      await Promise.all([quickDone, slowRequested]);
      child.kill(signal);
      const [code] = await exited;

      expect(stderr).not.toMatch(/\n\s+at /);
      expect(code).toBe(exitCode);
      expect(stderr).toContain(`${signal}: stopping the scans and closing the browser.`);
      expect(stderr).toContain('Stopped after 1 page; writing its results.');
      // The finished page, in colour as FORCE_COLOR asks even though stdout is a pipe (and
      // FORCE_COLOR wins over NO_COLOR, as in Node).
      expect(stdout).toContain(`${site.url}/quick`);
      expect(stdout).toContain('\u001b[');
      expect(stdout).not.toContain(`${site.url}/slow`);
    },
    120_000,
  );
});
