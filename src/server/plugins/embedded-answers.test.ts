import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startAccountService,
  TestBrowser,
  type AccountService,
} from '../../../test/support/auth.js';
import { scans, users } from '#db/schema/index.js';
import { seedDomain } from '../../../test/support/dashboard-seed.js';

/** index.html as Vite builds it, and a manifest naming the dashboard's and status page's chunks. */
const indexHtml =
  '<!doctype html><html><head><title>Conformly</title></head><body><div id="root"></div></body></html>';
const manifest = {
  'index.html': { file: 'assets/index-A.js', isEntry: true },
  'app/dashboard-frame.tsx': { file: 'assets/dashboard-frame-F.js' },
  'app/overview-screen.tsx': { file: 'assets/overview-screen-O.js' },
  'features/public/components/status-page.tsx': { file: 'assets/status-page-S.js' },
  'features/report/components/report-page.tsx': { file: 'assets/report-page-P.js' },
};

/** The answers block of a page, parsed as the web app parses it. */
function answersOf(html: string): Record<string, unknown> | undefined {
  const match = /<script type="application\/json" id="api-answers">([^<]*)<\/script>/.exec(html);
  return match ? (JSON.parse(match[1]!) as Record<string, unknown>) : undefined;
}
const preloaded = (html: string) =>
  [...html.matchAll(/<link rel="preload" as="fetch"[^>]* href="([^"]+)"/g)].map((m) => m[1]);

describe("a screen's first API answers written into its page", () => {
  let service: AccountService;
  let webRoot: string;
  let owner: TestBrowser;
  const email = 'answers@example.com';

  beforeAll(async () => {
    webRoot = await mkdtemp(join(tmpdir(), 'conformly-answers-'));
    await writeFile(join(webRoot, 'index.html'), indexHtml);
    await mkdir(join(webRoot, '.vite'));
    await writeFile(join(webRoot, '.vite/manifest.json'), JSON.stringify(manifest));
    service = await startAccountService({}, { webRoot });
    owner = new TestBrowser(service.app, '10.0.0.7');
    const registered = await owner.post('/api/auth/register', { email, password: 'Str0ng&Pass' });
    expect(registered.statusCode).toBe(201);
  }, 180_000);
  afterAll(async () => {
    await service?.close();
    if (webRoot) await rm(webRoot, { recursive: true, force: true });
  });

  it('carries the signed-in dashboard answers as the API gives them, private to its reader', async () => {
    const page = await owner.get('/app/dashboard');
    expect(page.statusCode).toBe(200);
    expect(page.headers['cache-control']).toBe('private, no-cache');
    const answers = answersOf(page.body);
    expect(answers).toBeDefined();
    const session = await owner.get('/api/session');
    expect(answers!['/api/session']).toEqual(session.json());
    expect(JSON.stringify(answers!['/api/session'])).toContain(email);
    // Every other answer the overview asks for first: carried when the API gives it (200), else
    // left for the page to ask for (this account has no plan, so some answers are refusals).
    for (const path of [
      '/api/subscription-status',
      '/api/dashboard',
      '/api/scans',
      '/api/account/settings',
    ]) {
      const direct = await owner.get(path);
      if (direct.statusCode === 200) expect(answers![path]).toEqual(direct.json());
      else {
        expect(answers![path]).toBeUndefined();
        expect(preloaded(page.body)).toContain(path);
      }
    }
    expect(Object.keys(answers!).length).toBeGreaterThanOrEqual(3);
    // What is carried is not also preloaded; the chunks still are.
    for (const path of Object.keys(answers!)) expect(preloaded(page.body)).not.toContain(path);
    expect(page.body).toContain(
      '<link rel="modulepreload" crossorigin href="/assets/overview-screen-O.js">',
    );
  });

  it('cannot be closed early by what an answer holds', async () => {
    const name = '</script><script>alert(1)</script> & \u2028';
    await service.database.db.update(users).set({ name }).where(eq(users.email, email));
    const page = await owner.get('/app/dashboard');
    expect(page.body).not.toContain('<script>alert(1)');
    expect(page.body.match(/<\/script>/g)).toHaveLength(1);
    expect(JSON.stringify(answersOf(page.body)!['/api/session'])).toContain(
      JSON.stringify(name).slice(1, -1),
    );
  });

  it('carries nothing of an account to a visitor without a session, or with an ended one', async () => {
    const visitor = await new TestBrowser(service.app).get('/app/dashboard');
    expect(answersOf(visitor.body)).toBeUndefined();
    expect(visitor.headers['cache-control']).toBe('no-cache');

    const ended = new TestBrowser(service.app);
    ended.cookies.set('conformly_session', 'not-a-session');
    const page = await ended.get('/app/dashboard');
    // The API says no one is signed in, and refuses the account's answers: those are left for
    // the page to ask for, as it would without this.
    expect(answersOf(page.body)?.['/api/session']).toEqual({ user: null });
    expect(answersOf(page.body)?.['/api/dashboard']).toBeUndefined();
    expect(preloaded(page.body)).toContain('/api/dashboard');
  });

  it("carries an owner's report with its triage states and team, and a stranger's without", async () => {
    const [account] = await service.database.db
      .select({ id: users.id })
      .from(users)
      .where(eq(users.email, email));
    const [scan] = await service.database.db
      .insert(scans)
      .values({
        userId: account!.id,
        url: 'https://owned.test/',
        domain: 'owned.test',
        status: 'completed',
        completedAt: new Date(),
        isPublic: true,
      })
      .returning({ id: scans.id });
    await seedDomain(service.database.db, account!.id, { domain: 'owned.test', index: 1 });
    const report = `/api/report/${scan!.id}`;
    const followUps = ['/api/domains/owned.test/triage', '/api/organisation/members'];

    const page = await owner.get(`/report/${scan!.id}`);
    const answers = answersOf(page.body)!;
    expect(answers[report]).toEqual((await owner.get(report)).json());
    expect(answers[report]).toMatchObject({ monitoredByCaller: true });
    for (const path of followUps) {
      const direct = await owner.get(path);
      expect(answers[path]).toEqual(direct.statusCode === 200 ? direct.json() : undefined);
    }
    expect(answers['/api/organisation/members']).toBeDefined();
    // Answers named from another answer are never preloaded: a refusal stays a single request.
    expect(preloaded(page.body)).toEqual([]);

    const stranger = new TestBrowser(service.app, '10.0.0.8');
    await stranger.post('/api/auth/register', {
      email: 'stranger@example.com',
      password: 'Str0ng&Pass',
    });
    const shared = answersOf((await stranger.get(`/report/${scan!.id}`)).body)!;
    expect(shared[report]).toMatchObject({ monitoredByCaller: false });
    for (const path of followUps) expect(shared[path]).toBeUndefined();
  });

  it("leaves an unknown domain's status to the page, without a preload it could not use", async () => {
    const page = await new TestBrowser(service.app).get('/status/nobody-monitors.example');
    expect(page.statusCode).toBe(200);
    // The header's answer (no one signed in) comes with the page; the status's 404 does not.
    expect(answersOf(page.body)).toEqual({ '/api/session': { user: null } });
    expect(preloaded(page.body)).toEqual([]);
    expect(page.body).toContain('/assets/status-page-S.js');
  });

  it('leaves a report address that names no scan to the page: its refusal is not written in', async () => {
    for (const id of ['not-a-scan', '00000000-0000-4000-8000-000000000000']) {
      const page = await owner.get(`/report/${id}`);
      expect(page.statusCode).toBe(200);
      // Only the header's 200 answer comes with the page; the report's 400 or 404 does not,
      // and no triage or team answer is read for it.
      expect(Object.keys(answersOf(page.body) ?? {})).toEqual(['/api/session']);
    }
    // An address that is not even valid percent-encoding is refused before any screen is read.
    const broken = await owner.get('/report/%E0%A4%A');
    expect(broken.statusCode).toBe(400);
    expect(broken.body).not.toContain('api-answers');
    expect(broken.json()).toMatchObject({ message: expect.stringContaining('not a valid url') });
  });
});
