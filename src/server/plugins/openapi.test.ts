import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestBrowser } from '../../../test/support/auth.js';
import { openTestPglite } from '../../../test/support/db.js';
import { registeredRoutes } from '../../../test/support/routes.js';
import { testConfig } from '../../../test/support/service.js';
import type { Database } from '#db/client.js';
import { createQueue, type PgBoss } from '#jobs/boss.js';
import { buildApp } from '../app.js';

let database: Database;
let boss: PgBoss;
let app: FastifyInstance;
let webRoot: string;

beforeAll(async () => {
  // The built web app beside the API, so its files and its page fallback are there too.
  webRoot = await mkdtemp(join(tmpdir(), 'conformly-web-'));
  await writeFile(join(webRoot, 'index.html'), '<!doctype html><title>Conformly</title>');
  await writeFile(join(webRoot, 'app.js'), 'console.log(1)');
  database = await openTestPglite();
  boss = await createQueue(database);
  app = await buildApp(testConfig, { database, boss, webRoot });
  await app.ready();
});
afterAll(async () => {
  await app?.close();
  await boss?.stop({ graceful: false, wait: true });
  await database?.close();
  await rm(webRoot, { recursive: true, force: true });
});

interface Operation {
  summary?: string;
  tags?: string[];
  security?: Record<string, string[]>[];
  parameters?: { in: string; name: string; required?: boolean }[];
  responses: Record<string, { description: string; content?: Record<string, unknown> }>;
}
interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string };
  tags: { name: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: {
    schemas: Record<string, unknown>;
    securitySchemes: Record<string, { type: string; in: string; name: string }>;
  };
}

async function openApiDocument(): Promise<OpenApiDocument> {
  const response = await app.inject({ method: 'GET', url: '/api/openapi.json' });
  expect(response.statusCode).toBe(200);
  expect(response.headers['content-type']).toMatch(/^application\/json/);
  return response.json();
}

function operations(document: OpenApiDocument) {
  return Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({ path, method, operation })),
  );
}

/**
 * Registered but deliberately not in the description, each hidden with `hide: true` by the
 * plugin that adds it: Swagger UI's own page, its assets and its copy of the document, and the
 * built web app's files.
 */
const undocumented = (path: string) =>
  path === '/api/docs' ||
  path.startsWith('/api/docs/') ||
  ['/', '/index.html', '/app.js'].includes(path);

/** `/api/scans/:id/events` as OpenAPI writes it: `/api/scans/{id}/events`. */
const openApiPath = (path: string) => path.replace(/:(\w+)/g, '{$1}');

/** A value each path parameter accepts, so a call gets past validation to what it checks next. */
function concretePath(path: string): string {
  return path.replace(/\{(\w+)\}/g, (_match, name: string) => {
    if (name === 'domain') return 'example.com';
    if (name === 'format') return 'csv';
    if (name === 'engine') return 'axe';
    return randomUUID();
  });
}

/** A value for each required query parameter. */
function requiredQuery(operation: Operation): string {
  const required = (operation.parameters ?? []).filter((p) => p.in === 'query' && p.required);
  return required.length ? `?${required.map((p) => `${p.name}=example.com`).join('&')}` : '';
}

describe('the OpenAPI document at /api/openapi.json', () => {
  it('is an OpenAPI 3.1 document with paths, named schemas and the security schemes', async () => {
    const document = await openApiDocument();
    expect(document.openapi).toMatch(/^3\.1\.\d+$/);
    expect(document.info).toMatchObject({ title: 'Conformly API' });
    expect(Object.keys(document.paths).length).toBeGreaterThan(50);
    expect(document.components.schemas.ErrorResponse).toMatchObject({
      type: 'object',
      required: ['message'],
    });
    expect(document.components.securitySchemes).toMatchObject({
      sessionCookie: { type: 'apiKey', in: 'cookie', name: 'conformly_session' },
      csrfToken: { type: 'apiKey', in: 'header', name: 'X-CSRF-Token' },
    });
    // Every reference leads to a schema the document holds.
    const refs = JSON.stringify(document).match(/"\$ref":"[^"]+"/g) ?? [];
    expect(refs.length).toBeGreaterThan(50);
    for (const ref of new Set(refs)) {
      const name = /#\/components\/schemas\/([^"]+)/.exec(ref)?.[1];
      expect(name && document.components.schemas[name], ref).toBeTruthy();
    }
  });

  it('describes every route the app registers, with each of its methods', async () => {
    const document = await openApiDocument();
    const routes = registeredRoutes(app);
    const hidden = routes.filter((route) => undocumented(route.path)).map((route) => route.path);
    // The exclusions name real routes (the reference and the web app are registered).
    expect(hidden).toEqual(expect.arrayContaining(['/api/docs', '/app.js']));
    const missing: string[] = [];
    let described = 0;
    for (const route of routes.filter((route) => !undocumented(route.path))) {
      for (const method of route.methods.filter((method) => method !== 'HEAD')) {
        described += 1;
        if (!document.paths[openApiPath(route.path)]?.[method.toLowerCase()]) {
          missing.push(`${method} ${route.path}`);
        }
      }
    }
    expect(missing).toEqual([]);
    expect(described).toBeGreaterThan(70);
    // And nothing is described that the app does not answer.
    expect(operations(document).length).toBe(described);
  });

  it('gives every call a summary, one area, a success answer and the error body for 4xx', async () => {
    const document = await openApiDocument();
    const areas = document.tags.map((tag) => tag.name);
    for (const { path, method, operation } of operations(document)) {
      const where = `${method.toUpperCase()} ${path}`;
      expect(operation.summary, where).toBeTruthy();
      expect(operation.tags, where).toHaveLength(1);
      expect(areas, where).toContain(operation.tags![0]);
      const statuses = Object.keys(operation.responses);
      expect(
        statuses.some((status) => /^[23]/.test(status)),
        where,
      ).toBe(true);
      expect(operation.responses['4XX']?.content, where).toEqual({
        'application/json': { schema: { $ref: '#/components/schemas/ErrorResponse' } },
      });
    }
  });

  it('names the media type of every answer that is not JSON', async () => {
    const document = await openApiDocument();
    const mediaTypes = (path: string, method = 'get') =>
      Object.keys(document.paths[path]![method]!.responses['200']!.content ?? {});
    expect(mediaTypes('/api/badge/{domain}')).toEqual(['image/svg+xml']);
    expect(mediaTypes('/api/report/{scanId}/statement.pdf')).toEqual(['application/pdf']);
    expect(mediaTypes('/api/html-report/{scanId}')).toEqual(['text/html']);
    expect(mediaTypes('/api/scans/{id}/events')).toEqual(['text/event-stream']);
    expect(mediaTypes('/api/report/{scanId}/export/{format}')).toContain('text/csv');
    expect(mediaTypes('/api/generate-vpat', 'post')).toEqual([
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    ]);
    expect(mediaTypes('/api/artifacts/{id}')).toContain('application/zip');
  });

  it('marks exactly the reads that need a sign-in: those refuse an anonymous caller with 401', async () => {
    const document = await openApiDocument();
    const visitor = new TestBrowser(app, '10.77.0.1');
    const token = await visitor.token();
    const signedIn = operations(document).filter(({ operation }) =>
      operation.security?.some((requirement) => 'sessionCookie' in requirement),
    );
    expect(signedIn.length).toBeGreaterThan(20);
    for (const { path, method, operation } of signedIn) {
      const response = await app.inject({
        method: method.toUpperCase() as 'GET',
        url: concretePath(path) + requiredQuery(operation),
        headers: { cookie: visitor.cookieHeader, 'x-csrf-token': token },
        remoteAddress: '10.77.0.1',
      });
      expect(`${method.toUpperCase()} ${path} -> ${response.statusCode}`).toBe(
        `${method.toUpperCase()} ${path} -> 401`,
      );
      expect(response.json()).toEqual({ message: expect.any(String) });
      expect(Object.keys(operation.responses)).toContain('401');
    }
    // And the other reads answer an anonymous caller without asking for a sign-in.
    const open = operations(document).filter(
      ({ method, operation }) =>
        method === 'get' && !signedIn.some((o) => o.operation === operation),
    );
    for (const { path, operation } of open) {
      const response = await app.inject({
        method: 'GET',
        url: concretePath(path) + requiredQuery(operation),
        headers: { cookie: visitor.cookieHeader },
        remoteAddress: '10.77.0.1',
      });
      expect(response.statusCode, `GET ${path}`).not.toBe(401);
    }
  });

  it('asks for the CSRF header on every call that changes state, and such a call without it gets 403', async () => {
    const document = await openApiDocument();
    const changing = operations(document).filter(({ method }) => method !== 'get');
    expect(changing.length).toBeGreaterThan(30);
    for (const { path, method, operation } of changing) {
      const where = `${method.toUpperCase()} ${path}`;
      const needsToken = operation.security?.every((requirement) => 'csrfToken' in requirement);
      if (path === '/api/stripe/webhook' || path === '/api/account/unsubscribe') {
        // Stripe signs its calls instead, and a mail client's one-click unsubscribe carries a
        // signed token: no CSRF token, and none is asked for.
        expect(needsToken, where).toBeFalsy();
        continue;
      }
      expect(needsToken, where).toBe(true);
      const response = await app.inject({ method: method.toUpperCase() as 'POST', url: path });
      expect(`${where} -> ${response.statusCode}`).toBe(`${where} -> 403`);
      expect(response.json().message).toMatch(/CSRF token/);
    }
  });
});

describe('the API reference at /api/docs', () => {
  it('answers a page whose scripts and styles all load from this server', async () => {
    const page = await app.inject({ method: 'GET', url: '/api/docs' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body).toContain('<title>Conformly API reference</title>');
    // The app's security headers apply: scripts from this origin only, and none inline.
    expect(page.headers['content-security-policy']).toMatch(/script-src 'self'/);
    expect(page.body).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/);
    const assets = [...page.body.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(assets.filter((asset) => asset.endsWith('.js')).length).toBeGreaterThanOrEqual(3);
    expect(assets.filter((asset) => asset.endsWith('.css')).length).toBeGreaterThanOrEqual(2);
    for (const asset of assets) {
      const url = new URL(asset, 'http://localhost/api/docs').pathname;
      const response = await app.inject({ method: 'GET', url });
      expect(`${url} -> ${response.statusCode}`).toBe(`${url} -> 200`);
      expect(response.body.length, url).toBeGreaterThan(0);
    }
  });

  it('reads the same description, addressed to the server it is served from', async () => {
    const document = await openApiDocument();
    const read = await app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(read.statusCode).toBe(200);
    const { servers, ...rest } = document as OpenApiDocument & { servers?: unknown };
    expect(servers).toEqual([{ url: 'http://localhost:3000' }]);
    expect(read.json()).toEqual(rest);
  });

  it('leaves the web app its pages, and the API its JSON 404', async () => {
    const page = await app.inject({ method: 'GET', url: '/app/dashboard' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<title>Conformly</title>');
    const missing = await app.inject({ method: 'GET', url: '/api/docs/static/no-such-file.js' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ message: expect.stringContaining('No such address') });
  });
});
