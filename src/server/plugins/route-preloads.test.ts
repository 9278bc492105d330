import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fastifyCookie from '@fastify/cookie';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { preloadLinks, type Manifest } from './route-preloads.js';
import { sessionCookieName } from './session.js';
import { webPlugin } from './web.js';

/** A build's manifest in Vite's shape: the entry, two dashboard screens and shared chunks. */
const manifest: Manifest = {
  'index.html': { file: 'assets/index-A.js', isEntry: true, imports: ['_react-R.js'] },
  '_react-R.js': { file: 'assets/react-R.js' },
  '_button-B.js': { file: 'assets/button-B.js', imports: ['_react-R.js'] },
  '_zod-Z.js': { file: 'assets/zod-Z.js' },
  'app/dashboard-frame.tsx': {
    file: 'assets/dashboard-frame-F.js',
    imports: ['index.html', '_button-B.js'],
  },
  'app/overview-screen.tsx': { file: 'assets/overview-screen-O.js', imports: ['_button-B.js'] },
  'features/dashboard/components/plan-gate.tsx': { file: 'assets/plan-gate-G.js' },
  'features/landing/components/landing-page.tsx': { file: 'assets/landing-page-L.js' },
  'features/report/components/report-page.tsx': {
    file: 'assets/report-page-P.js',
    imports: ['_button-B.js'],
  },
  'features/public/components/status-page.tsx': { file: 'assets/status-page-S.js' },
  'features/dashboard/components/domain-page.tsx': {
    file: 'assets/domain-page-D.js',
    imports: ['_zod-Z.js'],
  },
};

const hrefs = (html: string, rel: string) =>
  [...html.matchAll(new RegExp(`<link rel="${rel}"[^>]* href="([^"]+)"`, 'g'))].map((m) => m[1]);

describe('preloadLinks', () => {
  it("names the overview's chunks, not those index.html already loads, and its first answers", () => {
    const html = preloadLinks(manifest, '/app/dashboard', { signedIn: true });
    expect(hrefs(html, 'modulepreload')).toEqual([
      '/assets/dashboard-frame-F.js',
      '/assets/button-B.js',
      '/assets/overview-screen-O.js',
    ]);
    expect(hrefs(html, 'preload')).toEqual([
      '/api/session',
      '/api/subscription-status',
      '/api/organisations',
      '/api/account/settings',
      '/api/dashboard',
      '/api/scans',
    ]);
    expect(html).toContain('as="fetch" crossorigin="use-credentials"');
  });

  it("names a domain page's chunks and its domain's answer, encoded as the screen asks", () => {
    const html = preloadLinks(manifest, '/app/dashboard/domains/b%C3%BCcher.example', {
      signedIn: true,
    });
    expect(hrefs(html, 'modulepreload')).toEqual([
      '/assets/dashboard-frame-F.js',
      '/assets/button-B.js',
      '/assets/plan-gate-G.js',
      '/assets/domain-page-D.js',
      '/assets/zod-Z.js',
    ]);
    expect(hrefs(html, 'preload')).toEqual([
      '/api/session',
      '/api/subscription-status',
      '/api/organisations',
      '/api/dashboard/domains/b%C3%BCcher.example',
      '/api/domains/b%C3%BCcher.example/monitoring',
    ]);
  });

  it("names a report's chunks and its answer, with or without a session (shared reports)", () => {
    for (const signedIn of [true, false]) {
      const html = preloadLinks(manifest, '/report/0b6f4a9e-1c2d-4e5f-8a9b-0c1d2e3f4a5b', {
        signedIn,
      });
      expect(hrefs(html, 'modulepreload')).toEqual([
        '/assets/report-page-P.js',
        '/assets/button-B.js',
      ]);
      expect(hrefs(html, 'preload')).toEqual([
        '/api/session',
        '/api/report/0b6f4a9e-1c2d-4e5f-8a9b-0c1d2e3f4a5b',
      ]);
    }
  });

  it("names a status page's chunk but not its answer, which the page asks for revalidated", () => {
    const html = preloadLinks(manifest, '/status/example.com', { signedIn: false });
    expect(hrefs(html, 'modulepreload')).toEqual(['/assets/status-page-S.js']);
    expect(hrefs(html, 'preload')).toEqual([]);
    expect(preloadLinks(manifest, '/status', { signedIn: false })).toBe('');
  });

  it('asks for no answers without a session, and for nothing on other pages', () => {
    const html = preloadLinks(manifest, '/app/dashboard', { signedIn: false });
    expect(hrefs(html, 'modulepreload')).toHaveLength(3);
    expect(hrefs(html, 'preload')).toEqual([]);
    expect(preloadLinks(manifest, '/pricing', { signedIn: true })).toBe('');
    expect(preloadLinks(manifest, '/app/dashboard/domains', { signedIn: true })).toBe('');
  });

  it('escapes what comes from the address', () => {
    const html = preloadLinks(manifest, '/app/dashboard/domains/a"><script>', { signedIn: true });
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('a">');
  });
});

describe('the web plugin with a build manifest', () => {
  let root: string;
  let app: FastifyInstance;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'conformly-preloads-'));
    await writeFile(
      join(root, 'index.html'),
      '<!doctype html><html><head><title>Conformly</title></head><body></body></html>',
    );
    await mkdir(join(root, '.vite'));
    await writeFile(join(root, '.vite/manifest.json'), JSON.stringify(manifest));
    app = Fastify();
    await app.register(fastifyCookie);
    await app.register(webPlugin, { root });
  });
  afterAll(async () => {
    await app.close();
    await rm(root, { recursive: true, force: true });
  });

  it("puts a screen's preloads in index.html's head, revalidated like index.html", async () => {
    const response = await app.inject({
      url: '/app/dashboard?tab=scans',
      cookies: { [sessionCookieName]: 'token' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.headers['cache-control']).toBe('no-cache');
    const head = response.body.slice(0, response.body.indexOf('</head>'));
    expect(hrefs(head, 'modulepreload')).toContain('/assets/overview-screen-O.js');
    expect(hrefs(head, 'preload')).toContain('/api/dashboard');
  });

  it("names the landing page's chunk on /", async () => {
    const response = await app.inject({ url: '/' });
    expect(response.statusCode).toBe(200);
    expect(hrefs(response.body, 'modulepreload')).toEqual(['/assets/landing-page-L.js']);
  });

  it('serves index.html untouched for other pages', async () => {
    const response = await app.inject({ url: '/pricing' });
    expect(response.statusCode).toBe(200);
    expect(response.body).not.toContain('modulepreload');
  });
});
