import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
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

beforeAll(async () => {
  webRoot = await mkdtemp(join(tmpdir(), 'conformly-web-'));
  await writeFile(join(webRoot, 'index.html'), '<!doctype html><title>Conformly</title>');
  await writeFile(join(webRoot, 'app.js'), 'console.log(1)');
  database = await openTestPglite();
  boss = await createQueue(database);
  app = await buildApp(testConfig, { database, boss, webRoot });
  // A route that fails the way a bug would, to see what a 5xx reveals.
  app.get('/api/test-failure', async () => {
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
