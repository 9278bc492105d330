import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestPglite } from '../../../test/support/db.js';
import { registeredRoutes } from '../../../test/support/routes.js';
import { testConfig } from '../../../test/support/service.js';
import type { Database } from '#db/client.js';
import { createQueue, type PgBoss } from '#jobs/boss.js';
import { buildApp } from '../app.js';
import { accessRules } from './access-rules.js';

let database: Database;
let boss: PgBoss;
let app: FastifyInstance;
let webRoot: string;

beforeAll(async () => {
  webRoot = await mkdtemp(join(tmpdir(), 'conformly-web-'));
  await writeFile(join(webRoot, 'index.html'), '<!doctype html><title>Conformly</title>');
  database = await openTestPglite();
  boss = await createQueue(database);
  app = await buildApp(testConfig, { database, boss, webRoot });
}, 180_000);
afterAll(async () => {
  await app?.close();
  await boss?.stop({ graceful: false, wait: true });
  await database?.close();
  await rm(webRoot, { recursive: true, force: true });
});

describe('every route has an access rule', () => {
  it('refuses to add an API route nobody decided the access of', () => {
    expect(() => app.post('/api/undecided', async () => ({}))).toThrow(
      /POST \/api\/undecided has no access rule/,
    );
  });

  it('lists no rule for a route the app does not have', async () => {
    await app.ready();
    const registered = new Set(
      registeredRoutes(app).flatMap(({ path, methods }) => methods.map((m) => `${m} ${path}`)),
    );
    const stale = Object.keys(accessRules).filter((key) => !registered.has(key));
    expect(stale).toEqual([]);
  });
});
