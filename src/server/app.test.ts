import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { get, type IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestPglite } from '../../test/support/db.js';
import { testConfig } from '../../test/support/service.js';
import type { Database } from '#db/client.js';
import { createQueue, type PgBoss } from '#jobs/boss.js';
import { buildApp } from './app.js';

let database: Database;
let boss: PgBoss;
let app: FastifyInstance;
let webRoot: string;
/** A built script as Vite names it (content hash in the name), big enough to be compressed. */
const hashedScript = `export const rows = ${JSON.stringify(Array.from({ length: 400 }, (_, i) => `row ${i}`))};`;

beforeAll(async () => {
  webRoot = await mkdtemp(join(tmpdir(), 'conformly-web-'));
  await writeFile(join(webRoot, 'index.html'), '<!doctype html><title>Conformly</title>');
  await writeFile(join(webRoot, 'app.js'), 'console.log(1)');
  await mkdir(join(webRoot, 'assets'));
  await writeFile(join(webRoot, 'assets', 'index-Bx7k2Q.js'), hashedScript);
  database = await openTestPglite();
  boss = await createQueue(database);
  app = await buildApp(testConfig, { database, boss, webRoot });
  // A route that fails the way a bug would, to see what a 5xx reveals.
  app.get('/api/test-failure', { config: { access: { kind: 'public' } } }, async () => {
    throw new Error('connection to 10.0.0.7 refused: password authentication failed');
  });
});
afterAll(async () => {
  await app?.close();
  await boss?.stop({ graceful: false, wait: true });
  await database?.close();
  await rm(webRoot, { recursive: true, force: true });
});

describe('the app shell', () => {
  it('serves the built web app, and index.html for client routes', async () => {
    const asset = await app.inject({ method: 'GET', url: '/app.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.body).toBe('console.log(1)');
    const route = await app.inject({ method: 'GET', url: '/report/some-scan?tab=issues' });
    expect(route.statusCode).toBe(200);
    expect(route.headers['content-type']).toContain('text/html');
    expect(route.body).toContain('<title>Conformly</title>');
    expect(route.headers['x-frame-options']).toBe('SAMEORIGIN');
  });

  it('keeps JSON 404s for unknown API addresses', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/unknown' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ message: 'No such address: GET /api/unknown' });
  });

  it('answers a 500 without internals', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/test-failure' });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({ message: 'Something went wrong on our side.' });
  });
});

/** One real HTTP request, as a browser sends it, with the raw (still encoded) body. */
function fetchRaw(
  origin: string,
  path: string,
  encoding: string,
): Promise<{ response: IncomingMessage; body: Buffer }> {
  return new Promise((resolve, reject) => {
    get(`${origin}${path}`, { headers: { 'accept-encoding': encoding } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ response, body: Buffer.concat(chunks) }));
      response.on('error', reject);
    }).on('error', reject);
  });
}

describe('delivery of the web app', () => {
  let origin: string;
  beforeAll(async () => {
    origin = await app.listen({ host: '127.0.0.1', port: 0 });
  });

  it('sends hashed assets compressed (br, else gzip) and cached for a year as immutable', async () => {
    const br = await fetchRaw(origin, '/assets/index-Bx7k2Q.js', 'gzip, deflate, br');
    expect(br.response.statusCode).toBe(200);
    expect(br.response.headers['content-encoding']).toBe('br');
    expect(br.response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(brotliDecompressSync(br.body).toString()).toBe(hashedScript);
    expect(br.body.byteLength).toBeLessThan(hashedScript.length / 2);

    const gzip = await fetchRaw(origin, '/assets/index-Bx7k2Q.js', 'gzip');
    expect(gzip.response.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.body).toString()).toBe(hashedScript);

    const plain = await fetchRaw(origin, '/assets/index-Bx7k2Q.js', 'identity');
    expect(plain.response.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(hashedScript);
  });

  it('has index.html revalidated on every use, served directly or for a client route', async () => {
    for (const path of ['/', '/index.html', '/report/some-scan']) {
      const { response } = await fetchRaw(origin, path, 'gzip, br');
      expect(response.statusCode, path).toBe(200);
      expect(response.headers['cache-control'], path).toBe('no-cache');
    }
    // A file outside assets/ has no hash in its name: revalidated too.
    const { response } = await fetchRaw(origin, '/app.js', 'br');
    expect(response.headers['cache-control']).toBe('no-cache');
  });
});
