import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAccountService, TestBrowser, type AccountService } from '../../test/support/auth.js';
import { registeredRoutes, type RegisteredRoute } from '../../test/support/routes.js';

/**
 * Malformed requests against every API route the app registers: none may answer 5xx. Routes are
 * read from the app itself (printRoutes), so a new route is fuzzed without touching this file.
 * No request here is well-formed enough to start a scan or wait for one.
 */

let service: AccountService;
let browser: TestBrowser;
let token: string;

beforeAll(async () => {
  service = await startAccountService();
  browser = new TestBrowser(service.app, '10.99.0.1');
  token = await browser.token();
});

afterAll(async () => {
  await service?.close();
});

const nul = 'a\u0000b';
const loneHigh = 'x\ud800y';
const loneLow = '\udc00';

/** Values a field may be given instead of what it expects. */
const badValues: unknown[] = [
  null,
  123,
  -1,
  true,
  [],
  {},
  '',
  nul,
  loneHigh,
  loneLow,
  'a'.repeat(3000),
  [nul],
  { $gt: '' },
  { nested: { deeper: [loneHigh] } },
];

const fieldNames = [
  'url',
  'urls',
  'email',
  'password',
  'code',
  'token',
  'newPassword',
  'scanId',
  'domain',
  'name',
  'message',
  'type',
  'priority',
  'privacyConsent',
  'plan',
  'company',
  'isPublic',
  'includeRaw',
];

/** Raw bodies with their content types. */
const rawBodies: { body: string | Buffer; type: string | undefined }[] = [
  { body: '{', type: 'application/json' },
  { body: '{"a":', type: 'application/json' },
  { body: 'null', type: 'application/json' },
  { body: '[]', type: 'application/json' },
  { body: '"text"', type: 'application/json' },
  { body: '123', type: 'application/json' },
  { body: '', type: 'application/json' },
  { body: '\ufeff{}', type: 'application/json' },
  { body: '{"url":"\\u0000"}', type: 'application/json' },
  { body: '{"email":"\\ud800@example.com","url":"\\udfff"}', type: 'application/json' },
  { body: '{"\\u0000":1}', type: 'application/json' },
  { body: '['.repeat(5000) + ']'.repeat(5000), type: 'application/json' },
  { body: JSON.stringify({ url: 'x'.repeat(20_000) }), type: 'application/json' },
  { body: Buffer.from('{"url":"\xff\xfe"}', 'latin1'), type: 'application/json' },
  { body: Buffer.from('{}', 'utf16le'), type: 'application/json; charset=utf-16' },
  { body: 'url=x', type: 'application/x-www-form-urlencoded' },
  { body: 'hello', type: 'text/plain' },
  { body: '<a/>', type: 'application/xml' },
  { body: 'garbage', type: 'multipart/form-data' },
  { body: '--x\r\nbroken', type: 'multipart/form-data; boundary=x' },
  {
    body: '--x\r\nContent-Disposition: form-data; name="openacr"\r\n\r\n{',
    type: 'multipart/form-data; boundary=x',
  },
  { body: '{}', type: undefined },
  { body: '{}', type: 'application/json; charset=nonsense' },
  { body: '{}', type: ';;;' },
];

/** Stand-ins for path parameters. */
const paramValues = [
  'not-a-uuid',
  '00000000-0000-0000-0000-000000000000',
  '%00',
  '..%2f..%2fetc%2fpasswd',
  'a'.repeat(500),
  '%F0%9F%98%80',
  '%ED%A0%80',
  'example.com',
  '%E0%A4%A',
];

const queries = [
  '',
  '?email=a%40example.com',
  '?x=%00',
  '?a[]=1&a[b]=2',
  `?q=${'z'.repeat(5000)}`,
  '?%ff=%fe',
];

function fill(path: string, value: string): string {
  return path.replace(/:[A-Za-z]+/g, value);
}

function requestsFor(route: RegisteredRoute): InjectOptions[] {
  const requests: InjectOptions[] = [];
  const hasParams = (path: string) => path.includes(':');
  const paths = hasParams(route.path) ? paramValues.map((v) => fill(route.path, v)) : [route.path];
  const withToken = (headers: Record<string, string> = {}) => ({
    'x-csrf-token': token,
    cookie: browser.cookieHeader,
    ...headers,
  });
  for (const method of route.methods.filter((m) => m !== 'HEAD')) {
    for (const path of paths) {
      for (const query of queries) {
        requests.push({ method: method as 'GET', url: path + query, headers: withToken() });
      }
    }
    const path = paths[0]!;
    if (method === 'GET') continue;
    for (const { body, type } of rawBodies) {
      requests.push({
        method: method as 'POST',
        url: path,
        payload: body,
        headers: withToken(type ? { 'content-type': type } : {}),
      });
    }
    for (const field of fieldNames) {
      for (const value of badValues) {
        requests.push({
          method: method as 'POST',
          url: path,
          payload: JSON.stringify({ [field]: value }),
          headers: withToken({ 'content-type': 'application/json' }),
        });
      }
    }
    // Every field at once, all wrong, and no CSRF token at all.
    requests.push({
      method: method as 'POST',
      url: path,
      payload: JSON.stringify(Object.fromEntries(fieldNames.map((f) => [f, nul]))),
      headers: withToken({ 'content-type': 'application/json' }),
    });
    requests.push({
      method: method as 'POST',
      url: path,
      payload: '{}',
      headers: { 'content-type': 'application/json', cookie: browser.cookieHeader },
    });
  }
  for (const method of ['PUT', 'DELETE', 'PATCH', 'OPTIONS', 'TRACE']) {
    if (!route.methods.includes(method)) {
      requests.push({ method: method as 'PUT', url: paths[0]!, headers: withToken() });
    }
  }
  return requests;
}

const oddPaths = [
  '/api/',
  '/api/%00',
  '/api/..%2f..%2f',
  '/api/auth/',
  '/api/auth/login/extra',
  '/api//auth//login',
  '/api/report/',
  `/api/${'x'.repeat(3000)}`,
  '/api/scans?%',
  '/api/user/me?email=secret%40example.com',
];

describe('fuzzing every API route', () => {
  it('answers at least 1,000 malformed requests without a single 5xx', async () => {
    const routes = registeredRoutes(service.app).filter((route) => route.path.startsWith('/api/'));
    expect(routes.length).toBeGreaterThan(30);
    const requests = [
      ...routes.flatMap(requestsFor),
      ...oddPaths.flatMap((url) =>
        ['GET', 'POST'].map((method) => ({ method, url, headers: {} }) as InjectOptions),
      ),
    ];
    expect(requests.length).toBeGreaterThanOrEqual(1000);
    console.info(`fuzzing ${routes.length} routes with ${requests.length} requests`);
    const failures: string[] = [];
    const batch = 25;
    for (let start = 0; start < requests.length; start += batch) {
      const slice = requests.slice(start, start + batch);
      const responses = await Promise.all(
        slice.map((request) => service.app.inject({ remoteAddress: '10.99.0.1', ...request })),
      );
      responses.forEach((response, i) => {
        if (response.statusCode >= 500) {
          const request = slice[i]!;
          const payload = String(request.payload ?? '').slice(0, 80);
          failures.push(
            `${response.statusCode} ${request.method} ${String(request.url).slice(0, 120)} ` +
              `[${(request.headers as Record<string, string>)['content-type'] ?? ''}] ${payload}`,
          );
        }
      });
    }
    expect(failures).toEqual([]);
  }, 600_000);
});
