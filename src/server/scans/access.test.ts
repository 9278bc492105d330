import { eq } from 'drizzle-orm';
import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestBrowser } from '../../../test/support/auth.js';
import {
  call,
  eventually,
  newVisitor,
  startTestService,
  type TestService,
  type Visitor,
} from '../../../test/support/service.js';
import { ReportResponse, ShareLinkResponse } from '#contract/index.js';
import { domains, scans, scanShareLinks, users } from '#db/schema/index.js';

/**
 * Who reads a scan's documents: a private scan answers its owner (the anonymous browser that
 * started it, or the account) and the holders of its share link, and to anyone else it does not
 * exist; a public scan answers everyone.
 */

const publicUrl = 'https://conformly.example';

let service: TestService;
let owner: Visitor;
let stranger: Visitor;
let scanId: string;
let screenshot: string;

beforeAll(async () => {
  service = await startTestService({
    config: { publicUrl } as never,
    app: { pdfRateLimit: { max: 3, timeWindowMs: 60_000 } },
  });
  owner = await newVisitor(service.app);
  stranger = await newVisitor(service.app);
  const started = await call(service.app, owner, 'POST', '/api/scans', {
    url: `${service.site.url}/missing-alt.html`,
  });
  expect(started.statusCode).toBe(202);
  scanId = (started.json() as { id: string }).id;
  const report = await eventually(async () => {
    const response = await call(service.app, owner, 'GET', `/api/report/${scanId}`);
    const body = ReportResponse.parse(response.json());
    if (body.scan.status === 'failed') throw new Error('scan failed');
    return body.scan.status === 'completed' ? body : undefined;
  });
  screenshot = report.scan.screenshots[0]!;
  expect(screenshot).toMatch(/^\/api\/artifacts\//);
});
afterAll(() => service?.close());

/** Every route that answers with a scan's data, as [method, url, body]. */
const documentCalls = (share = ''): [method: 'GET' | 'POST', url: string, body?: unknown][] => {
  const q = share ? `?share=${share}` : '';
  const and = share ? `&share=${share}` : '';
  return [
    ['GET', `/api/report/${scanId}${q}`],
    ['GET', `/api/report/${scanId}?raw=true${and}`],
    ['GET', `/api/html-report/${scanId}${q}`],
    ['GET', `/api/report/${scanId}/export/csv${q}`],
    ['GET', `/api/report/${scanId}/export/json${q}`],
    ['GET', `/api/report/${scanId}/export/md${q}`],
    ['GET', `/api/report/${scanId}/raw/axe${q}`],
    ['GET', `/api/real-live-scan/progress?scanId=${scanId}${and}`],
    ['GET', `/api/real-live-scan/results?scanId=${scanId}${and}`],
    ['POST', `/api/generate-vpat-from-scan${q}`, { scanId }],
    ['POST', `/api/fill-vpat-template${q}`, { scanId }],
    ['GET', `${screenshot}${q}`],
  ];
};

const setPublic = (isPublic: boolean) =>
  service.database.db.update(scans).set({ isPublic }).where(eq(scans.id, scanId));

describe('a private scan', () => {
  it('answers its documents to the browser that started it, never to be cached', async () => {
    for (const [method, url, body] of documentCalls()) {
      const response = await call(service.app, owner, method, url, body);
      expect(response.statusCode, `${method} ${url}`).toBe(200);
      expect(response.headers['cache-control'], `${method} ${url}`).toBe('private, no-store');
    }
  });

  it('does not exist for a caller without cookies or another browser', async () => {
    for (const caller of [undefined, stranger]) {
      for (const [method, url, body] of documentCalls()) {
        // A cookie-less POST has no CSRF token; the stranger's has one, so it reaches the route.
        if (method === 'POST' && !caller) continue;
        const response = await call(service.app, caller, method, url, body);
        expect(response.statusCode, `${method} ${url}`).toBe(404);
        expect(response.body).not.toContain('missing-alt');
      }
      const events = await call(service.app, caller, 'GET', `/api/scans/${scanId}/events`);
      expect(events.statusCode).toBe(404);
      const pdf = await call(service.app, caller, 'GET', `/api/report/${scanId}/statement.pdf`);
      expect(pdf.statusCode).toBe(404);
    }
  });

  it('belongs to the account once the account started it, not to the anonymous browser', async () => {
    const account = new TestBrowser(service.app, '10.9.0.1');
    const email = 'reader@example.com';
    const registered = await account.post('/api/auth/register', {
      email,
      password: 'Str0ng&Pass',
    });
    expect(registered.statusCode).toBe(201);
    const [user] = await service.database.db
      .select({ id: users.id })
      .from(users)
      .where(eq(users.email, email));
    await service.database.db.update(scans).set({ userId: user!.id }).where(eq(scans.id, scanId));
    try {
      expect((await account.get(`/api/report/${scanId}`)).statusCode).toBe(200);
      expect((await account.get(screenshot)).statusCode).toBe(200);
      expect((await call(service.app, owner, 'GET', `/api/report/${scanId}`)).statusCode).toBe(404);
    } finally {
      await service.database.db.update(scans).set({ userId: null }).where(eq(scans.id, scanId));
    }
  });
});

describe('a share link', () => {
  const create = (caller: Visitor | undefined) =>
    call(service.app, caller, 'POST', `/api/scans/${scanId}/share-link`);
  const revoke = (caller: Visitor) =>
    service.app.inject({
      method: 'DELETE',
      url: `/api/scans/${scanId}/share-link`,
      headers: { cookie: caller.cookie, 'x-csrf-token': caller.token },
    });

  it('is made by the owner only, and opens every document to whoever holds it', async () => {
    expect((await create(stranger)).statusCode).toBe(404);
    expect((await create(undefined)).statusCode).toBe(403);

    const made = await create(owner);
    expect(made.statusCode).toBe(201);
    const link = ShareLinkResponse.parse(made.json());
    expect(link.url).toBe(`${publicUrl}/api/html-report/${scanId}?share=${link.token}`);
    expect(link.token.length).toBeGreaterThanOrEqual(40);
    // Only a hash is kept: the stored value does not open anything by itself.
    const [stored] = await service.database.db
      .select()
      .from(scanShareLinks)
      .where(eq(scanShareLinks.scanId, scanId));
    expect(stored!.tokenHash).not.toContain(link.token);

    for (const [method, url, body] of documentCalls(link.token)) {
      // A POST needs some browser's CSRF token: the stranger's, who holds the link.
      const caller = method === 'GET' ? undefined : stranger;
      const response = await call(service.app, caller, method, url, body);
      expect(response.statusCode, `${method} ${url}`).toBe(200);
      expect(response.headers['cache-control'], `${method} ${url}`).toBe('private, no-store');
    }
    // A wrong token is no token.
    const wrong = await call(
      service.app,
      undefined,
      'GET',
      `/api/report/${scanId}?share=x${link.token}`,
    );
    expect(wrong.statusCode).toBe(404);
  });

  it('stops working when replaced or revoked', async () => {
    const first = ShareLinkResponse.parse((await create(owner)).json());
    const second = ShareLinkResponse.parse((await create(owner)).json());
    const read = (token: string) =>
      call(service.app, undefined, 'GET', `/api/report/${scanId}?share=${token}`);
    expect((await read(first.token)).statusCode).toBe(404);
    expect((await read(second.token)).statusCode).toBe(200);

    expect((await revoke(stranger)).statusCode).toBe(404);
    expect((await read(second.token)).statusCode).toBe(200);
    expect((await revoke(owner)).statusCode).toBe(204);
    expect((await read(second.token)).statusCode).toBe(404);
    expect(
      (await call(service.app, undefined, 'GET', `${screenshot}?share=${second.token}`)).statusCode,
    ).toBe(404);
  });
});

describe('a public scan', () => {
  it('answers everyone, and its screenshots may be cached', async () => {
    await setPublic(true);
    try {
      for (const [method, url, body] of documentCalls()) {
        const response = await call(
          service.app,
          method === 'GET' ? undefined : stranger,
          method,
          url,
          body,
        );
        expect(response.statusCode, `${method} ${url}`).toBe(200);
      }
      const image = await call(service.app, undefined, 'GET', screenshot);
      expect(image.headers['cache-control']).toContain('immutable');
      const again = await service.app.inject({
        method: 'GET',
        url: screenshot,
        headers: { 'if-none-match': image.headers.etag as string },
      });
      expect(again.statusCode).toBe(304);
    } finally {
      await setPublic(false);
    }
  });
});

describe('the statement PDF', () => {
  it('links to the configured site, whatever Host the request names, and is rate limited', async () => {
    // The statement names a status page only for a domain that has one: monitored and verified.
    const [holder] = await service.database.db
      .insert(users)
      .values({ email: 'holder@example.org', name: 'holder' })
      .returning({ id: users.id });
    await service.database.db.insert(domains).values({
      userId: holder!.id,
      domain: '127.0.0.1',
      status: 'active',
      domainIndex: 1,
      monthlyPrice: 4900,
      monitoringSince: new Date(),
      verifiedAt: new Date(),
      verificationMethod: 'dns',
    });
    const print = () =>
      service.app.inject({
        method: 'GET',
        url: `/api/report/${scanId}/statement.pdf`,
        headers: { cookie: owner.cookie, host: 'evil.example' },
        remoteAddress: '10.9.0.2',
      });
    const response = await print();
    expect(response.statusCode).toBe(200);
    const pdf = await getDocumentProxy(new Uint8Array(response.rawPayload));
    const { text } = await extractText(pdf, { mergePages: true });
    const flat = text.replace(/\s+/g, ' ');
    expect(flat).toContain(`${publicUrl}/status/127.0.0.1`);
    expect(flat).not.toContain('evil.example');

    // The allowance is 3 a minute here; the first was printed above.
    expect((await print()).statusCode).toBe(200);
    expect((await print()).statusCode).toBe(200);
    const refused = await print();
    expect(refused.statusCode).toBe(429);
    expect(refused.json().message).toMatch(/Too many statements/);
  });
});
