import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  eventually,
  newVisitor,
  slowPage,
  startTestService,
  type TestService,
  type Visitor,
} from '../../../test/support/service.js';
import {
  RawScanResult,
  ReportResponse,
  ScanProgress,
  ScanResults,
  type ScanProgress as Progress,
} from '#contract/index.js';
import { issues, scans } from '#db/schema/index.js';

let service: TestService;
let visitor: Visitor;

beforeAll(async () => {
  service = await startTestService({ routes: { '/slow.html': slowPage(20_000) } });
  visitor = await newVisitor(service.app);
});
afterAll(() => service?.close());

const page = (name: string) => `${service.site.url}/${name}`;

async function progressOf(scanId: string, who: Visitor = visitor): Promise<Progress> {
  const response = await call(
    service.app,
    who,
    'GET',
    `/api/real-live-scan/progress?scanId=${scanId}`,
  );
  expect(response.statusCode).toBe(200);
  return ScanProgress.parse(response.json());
}

/** Polls progress like the live-scan screen until a final stage; returns every stage seen. */
async function pollUntilDone(scanId: string): Promise<{ last: Progress; stages: string[] }> {
  const stages: string[] = [];
  const last = await eventually(async () => {
    const progress = await progressOf(scanId);
    if (stages.at(-1) !== progress.stage) stages.push(progress.stage);
    return ['complete', 'error', 'aborted'].includes(progress.stage) ? progress : undefined;
  });
  return { last, stages };
}

describe('CSRF token', () => {
  it('gives a new browser a client cookie and the token bound to it', async () => {
    const response = await service.app.inject({ method: 'GET', url: '/api/csrf-token' });
    expect(response.statusCode).toBe(200);
    const cookie = response.cookies.find((c) => c.name === 'conformly_client');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(response.json()).toEqual({ csrfToken: expect.any(String) });
    expect(response.headers['content-security-policy']).toContain("default-src 'self'");
  });

  it('answers the same token to a browser that already has its cookie', async () => {
    const response = await call(service.app, visitor, 'GET', '/api/csrf-token');
    expect(response.json()).toEqual({ csrfToken: visitor.token });
    expect(response.cookies).toEqual([]);
  });

  it("refuses another browser's token", async () => {
    const other = await newVisitor(service.app);
    const response = await call(
      service.app,
      { cookie: visitor.cookie, token: other.token },
      'POST',
      '/api/scans',
      { url: page('clean.html') },
    );
    expect(response.statusCode).toBe(403);
    expect(response.json().message).toMatch(/CSRF/);
  });
});

describe('scan through the queue', () => {
  let scanId: string;

  it('queues a scan, runs it on a worker and stores its issues as rows', async () => {
    const started = await call(service.app, visitor, 'POST', '/api/scans', {
      url: page('missing-alt.html'),
    });
    expect(started.statusCode).toBe(202);
    scanId = (started.json() as { id: string }).id;

    const { last } = await pollUntilDone(scanId);
    expect(last).toMatchObject({ stage: 'complete', status: 'completed', canAbort: false });

    const response = await call(service.app, visitor, 'GET', `/api/report/${scanId}`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('private, no-store');
    const report = ReportResponse.parse(response.json());
    expect(report).toMatchObject({ scanId, domain: '127.0.0.1', totalIssues: 2 });
    expect(report.score).toEqual(expect.any(Number));
    expect(report.axe).toBeUndefined();
    // The fixture's known problems (test/fixtures/site/missing-alt.expected.json).
    const violations = report.issues.filter((issue) => issue.kind === 'violation');
    expect(violations.map((issue) => issue.selector).sort()).toEqual(['#go', '#hero']);
    expect(violations[0]).toMatchObject({ impact: 'critical', wcag: ['1.1.1'] });

    const [stored] = await service.database.db
      .select({ n: count() })
      .from(issues)
      .where(eq(issues.scanId, scanId));
    expect(stored!.n).toBe(report.issues.length);
  });

  it('adds raw engine output to the report when asked', async () => {
    const response = await call(service.app, visitor, 'GET', `/api/report/${scanId}?raw=true`);
    const report = ReportResponse.parse(response.json());
    expect(report.axe?.violations.map((rule) => rule.id)).toContain('image-alt');
    expect(report.pa11y?.issues.length).toBeGreaterThan(0);
    expect(report.ibm?.report.results.length).toBeGreaterThan(0);
  });

  it('serves the scan screenshots from the database, to the scan owner only', async () => {
    const report = ReportResponse.parse(
      (await call(service.app, visitor, 'GET', `/api/report/${scanId}`)).json(),
    );
    expect(report.scan.screenshots.length).toBeGreaterThan(0);
    const response = await call(service.app, visitor, 'GET', report.scan.screenshots[0]!);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('image/jpeg');
    // The scan is private: no cache may keep its screenshot.
    expect(response.headers['cache-control']).toBe('private, no-store');
    // JPEG files start with FF D8.
    expect([...response.rawPayload.subarray(0, 2)]).toEqual([0xff, 0xd8]);
    const stranger = await call(service.app, undefined, 'GET', report.scan.screenshots[0]!);
    expect(stranger.statusCode).toBe(404);
  });

  it("lists the caller's scans only", async () => {
    const mine = await call(service.app, visitor, 'GET', '/api/scans');
    expect(mine.json().scans).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: scanId, status: 'completed', domain: '127.0.0.1' }),
      ]),
    );
    const stranger = await newVisitor(service.app);
    expect((await call(service.app, stranger, 'GET', '/api/scans')).json()).toEqual({ scans: [] });
  });
});

describe('live scan', () => {
  it('starts, reports real progress by polling and by SSE, and answers results', async () => {
    const me = await newVisitor(service.app);
    const started = await call(service.app, me, 'POST', '/api/real-live-scan/start', {
      url: page('low-contrast.html'),
      includeRaw: true,
    });
    expect(started.statusCode).toBe(202);
    const { scanId } = started.json() as { scanId: string };

    // The event stream ends by itself once the scan reaches a final stage.
    const events = await call(service.app, me, 'GET', `/api/scans/${scanId}/events`);
    expect(events.headers['content-type']).toContain('text/event-stream');
    const messages = events.body
      .split('\n\n')
      .filter((block) => block.startsWith('event: progress'))
      .map((block) => ScanProgress.parse(JSON.parse(block.split('\ndata: ')[1]!)));
    expect(messages.at(-1)).toMatchObject({ stage: 'complete', overallProgress: 100 });
    expect(messages.length).toBeGreaterThan(1);
    const tools = new Set(messages.map((m) => m.currentTool).filter(Boolean));
    expect(tools.size).toBeGreaterThan(0);

    // Without ?scanId=, progress is the caller's latest scan.
    const latest = await call(service.app, me, 'GET', '/api/real-live-scan/progress');
    const progress = ScanProgress.parse(latest.json());
    expect(progress).toMatchObject({ scanId, stage: 'complete', error: null });
    expect(progress.logs.map((log) => log.tool)).toEqual(
      expect.arrayContaining(['system', 'axe', 'pa11y', 'ibm']),
    );
    expect(progress.results?.failedTests).toBeGreaterThan(0);
    expect(progress.aiSummary).toMatch(/no AI service is configured/);

    const results = ScanResults.parse(
      (await call(service.app, me, 'GET', '/api/real-live-scan/results')).json(),
    );
    expect(results.axeResults?.violations.map((rule) => rule.id)).toContain('color-contrast');
    expect(results.passedTests).toBeGreaterThan(0);
  });

  it('answers 404 for progress and results when the caller has no scan', async () => {
    const stranger = await newVisitor(service.app);
    for (const path of ['/api/real-live-scan/progress', '/api/real-live-scan/results']) {
      const response = await call(service.app, stranger, 'GET', path);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ message: 'No scan found.' });
    }
  });

  it('aborts a running scan: the job is cancelled and the tab freed', async () => {
    const me = await newVisitor(service.app);
    const { scanId } = (
      await call(service.app, me, 'POST', '/api/real-live-scan/start', { url: page('slow.html') })
    ).json() as { scanId: string };
    await eventually(async () =>
      (await progressOf(scanId, me)).status === 'running' ? true : undefined,
    );
    await eventually(async () => (service.pool.stats().active > 0 ? true : undefined));

    const aborted = await call(service.app, me, 'POST', '/api/real-live-scan/abort', {});
    expect(aborted.json()).toEqual({ success: true, message: 'Scan aborted.' });
    expect(await progressOf(scanId, me)).toMatchObject({ stage: 'aborted', canAbort: false });
    expect((await service.boss.getJobById('scan-page', scanId))?.state).toBe('cancelled');
    // The worker notices within its abort check and gives the tab back.
    await eventually(async () => (service.pool.stats().active === 0 ? true : undefined));
    expect((await progressOf(scanId, me)).status).toBe('aborted');

    const again = await call(service.app, me, 'POST', '/api/real-live-scan/abort', { scanId });
    expect(again.statusCode).toBe(409);
  });

  it('reset stops whatever the caller has running', async () => {
    const me = await newVisitor(service.app);
    const { scanId } = (
      await call(service.app, me, 'POST', '/api/real-live-scan/start', { url: page('slow.html') })
    ).json() as { scanId: string };
    const reset = await call(service.app, me, 'POST', '/api/real-live-scan/reset');
    expect(reset.json()).toEqual({ success: true, message: 'Stopped 1 running scan(s).' });
    expect((await progressOf(scanId, me)).stage).toBe('aborted');
    const idle = await call(service.app, me, 'POST', '/api/real-live-scan/reset');
    expect(idle.json()).toEqual({ success: true, message: 'Nothing was running.' });
  });
});

describe('scan now', () => {
  it('POST /api/analyze answers the report of a fresh scan', async () => {
    const response = await call(service.app, visitor, 'POST', '/api/analyze', {
      url: page('unlabeled-inputs.html'),
    });
    expect(response.statusCode).toBe(200);
    const report = ReportResponse.parse(response.json());
    expect(report.scan.status).toBe('completed');
    expect(report.totalIssues).toBeGreaterThan(0);
  });

  it('POST /api/raw-scan answers the raw result', async () => {
    const response = await call(service.app, visitor, 'POST', '/api/raw-scan', {
      url: page('clean.html'),
    });
    expect(response.statusCode).toBe(200);
    const raw = RawScanResult.parse(response.json());
    expect(raw.meta.url).toBe(page('clean.html'));
    expect(raw.meta.processingTimes.total).toBeGreaterThan(0);
  });

  it('answers 422 with the reason when the page cannot be scanned', async () => {
    const response = await call(service.app, visitor, 'POST', '/api/analyze', {
      url: page('does-not-exist.html'),
    });
    expect(response.statusCode).toBe(422);
    expect(response.json().message).toMatch(/HTTP 404/);
  });
});

describe('bad input', () => {
  const unknownId = '00000000-0000-4000-8000-000000000000';
  type Case = {
    name: string;
    method: 'GET' | 'POST';
    url: string;
    body?: unknown;
    raw?: string;
    csrf?: false;
    status: number;
  };
  const cases: Case[] = [
    { name: 'missing url', method: 'POST', url: '/api/scans', body: {}, status: 400 },
    {
      name: 'url of wrong type',
      method: 'POST',
      url: '/api/scans',
      body: { url: 42 },
      status: 400,
    },
    { name: 'blank url', method: 'POST', url: '/api/scans', body: { url: '  ' }, status: 400 },
    {
      name: 'not a URL',
      method: 'POST',
      url: '/api/scans',
      body: { url: 'not a url' },
      status: 400,
    },
    {
      name: 'javascript: URL',
      method: 'POST',
      url: '/api/analyze',
      body: { url: 'javascript:alert(1)' },
      status: 400,
    },
    {
      name: 'unknown field',
      method: 'POST',
      url: '/api/scans',
      body: { url: 'https://a.org', x: 1 },
      status: 400,
    },
    {
      name: 'overlong url',
      method: 'POST',
      url: '/api/scans',
      body: { url: `https://a.org/${'a'.repeat(3000)}` },
      status: 400,
    },
    {
      name: 'oversized body',
      method: 'POST',
      url: '/api/scans',
      raw: JSON.stringify({ url: 'https://a.org', pad: 'x'.repeat(40_000) }),
      status: 413,
    },
    { name: 'malformed JSON', method: 'POST', url: '/api/raw-scan', raw: '{"url": ', status: 400 },
    {
      name: 'includeRaw of wrong type',
      method: 'POST',
      url: '/api/real-live-scan/start',
      body: { url: 'https://a.org', includeRaw: 'yes' },
      status: 400,
    },
    {
      name: 'missing CSRF token',
      method: 'POST',
      url: '/api/scans',
      body: { url: 'https://a.org' },
      csrf: false,
      status: 403,
    },
    {
      name: 'missing CSRF on abort',
      method: 'POST',
      url: '/api/real-live-scan/abort',
      body: {},
      csrf: false,
      status: 403,
    },
    { name: 'unknown report', method: 'GET', url: `/api/report/${unknownId}`, status: 404 },
    { name: 'malformed report id', method: 'GET', url: '/api/report/12', status: 400 },
    {
      name: 'unknown progress id',
      method: 'GET',
      url: `/api/real-live-scan/progress?scanId=${unknownId}`,
      status: 404,
    },
    {
      name: 'malformed progress id',
      method: 'GET',
      url: '/api/real-live-scan/progress?scanId=x',
      status: 400,
    },
    {
      name: 'unknown event stream',
      method: 'GET',
      url: `/api/scans/${unknownId}/events`,
      status: 404,
    },
    { name: 'unknown artifact', method: 'GET', url: `/api/artifacts/${unknownId}`, status: 404 },
    {
      name: 'abort of an unknown scan',
      method: 'POST',
      url: '/api/real-live-scan/abort',
      body: { scanId: unknownId },
      status: 404,
    },
    { name: 'unknown API address', method: 'GET', url: '/api/nothing-here', status: 404 },
  ];

  it.each(cases)('$name -> $status with a message, nothing stored', async (c) => {
    const before = await service.database.db.select({ n: count() }).from(scans);
    const response = await service.app.inject({
      method: c.method,
      url: c.url,
      headers: {
        cookie: visitor.cookie,
        ...(c.csrf === false ? {} : { 'x-csrf-token': visitor.token }),
        ...(c.body !== undefined || c.raw !== undefined
          ? { 'content-type': 'application/json' }
          : {}),
      },
      ...(c.raw !== undefined ? { payload: c.raw } : {}),
      ...(c.body !== undefined ? { payload: JSON.stringify(c.body) } : {}),
    });
    expect(response.statusCode).toBe(c.status);
    expect(response.json()).toEqual({ message: expect.stringMatching(/\w/) });
    const after = await service.database.db.select({ n: count() }).from(scans);
    expect(after).toEqual(before);
  });
});

describe('private targets', () => {
  it('refuses loopback addresses unless ALLOW_PRIVATE_TARGETS is on', async () => {
    const strict = await startTestService({ config: { allowPrivateTargets: false } });
    try {
      const me = await newVisitor(strict.app);
      const response = await call(strict.app, me, 'POST', '/api/scans', {
        url: `${strict.site.url}/clean.html`,
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toMatch(/127\.0\.0\.1|private|loopback/i);
      expect(await strict.database.db.select({ n: count() }).from(scans)).toEqual([{ n: 0 }]);
    } finally {
      await strict.close();
    }
  });
});

describe('a host name that does not exist', () => {
  it('is answered at once in plain words, before any scan is queued or a tab used', async () => {
    // ALLOW_PRIVATE_TARGETS is on in tests: the name is looked up all the same.
    const me = await newVisitor(service.app);
    const before = await service.database.db.select({ n: count() }).from(scans);
    const response = await call(service.app, me, 'POST', '/api/scans', {
      url: 'https://no-such-host.invalid/',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe(
      'We could not find no-such-host.invalid: no website answers to that name. Check the address for typos.',
    );
    expect(await service.database.db.select({ n: count() }).from(scans)).toEqual(before);
  });
});

describe('rate limit', () => {
  it('limits scan starts per address', async () => {
    const limited = await startTestService({
      app: { scanRateLimit: { max: 1, timeWindowMs: 60_000 } },
      routes: { '/slow.html': slowPage(20_000) },
    });
    try {
      const me = await newVisitor(limited.app);
      const url = `${limited.site.url}/slow.html`;
      expect((await call(limited.app, me, 'POST', '/api/scans', { url })).statusCode).toBe(202);
      const refused = await call(limited.app, me, 'POST', '/api/real-live-scan/start', { url });
      expect(refused.statusCode).toBe(429);
      expect(refused.json().message).toMatch(/Too many scans/);
      await call(limited.app, me, 'POST', '/api/real-live-scan/reset');
    } finally {
      await limited.close();
    }
  });
});
