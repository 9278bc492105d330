import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, ConfigError } from '#config';
import { authLogs, domains, users } from '#db/schema/index.js';
import {
  startAccountService,
  TestBrowser,
  type AccountService,
} from '../../../test/support/auth.js';
import { redactUrl } from './errors.js';
import { clientCookieName } from './csrf.js';

/** The smaller holes of the security review: text no column stores, cookies, logs, proxies. */

describe('text no column can store', () => {
  let service: AccountService;
  let next = 1;
  const browser = () => new TestBrowser(service.app, `10.77.0.${next++}`);

  beforeAll(async () => {
    service = await startAccountService();
    const [owner] = await service.database.db
      .insert(users)
      .values({ email: 'owner@nul.test', name: 'Owner' })
      .returning({ id: users.id });
    await service.database.db.insert(domains).values({
      userId: owner!.id,
      domain: 'nul.test',
      status: 'trial',
      domainIndex: 1,
      monthlyPrice: 4900,
      monitoringSince: new Date(Date.UTC(2026, 0, 1)),
      verifiedAt: new Date(Date.UTC(2026, 0, 1)),
      verificationMethod: 'dns',
    });
  });
  afterAll(async () => service?.close());

  const signup = { email: 'nul@example.com', url: 'http://127.0.0.1:9/', plan: 'free' };
  const complaint = {
    domain: 'nul.test',
    email: 'visitor@example.com',
    name: 'Visitor',
    type: 'complaint',
    priority: 'normal',
    message: 'The form has no labels.',
    privacyConsent: true,
  };

  it.each([
    [
      'a NUL in the sign-up name',
      '/api/auth/signup',
      { ...signup, name: 'a\u0000b' },
      'name: must not contain NUL characters',
    ],
    [
      'a lone surrogate in the sign-up name',
      '/api/auth/signup',
      { ...signup, name: '\ud800' },
      'name: must not contain unpaired surrogate characters',
    ],
    [
      'a NUL in a complaint name',
      '/api/public/submit-complaint',
      { ...complaint, name: 'a\u0000' },
      'name: must not contain NUL characters',
    ],
    [
      'a NUL in a complaint message',
      '/api/public/submit-complaint',
      { ...complaint, message: '\u0000' },
      'message: must not contain NUL characters',
    ],
    [
      'a lone surrogate in a complaint message',
      '/api/public/submit-complaint',
      { ...complaint, message: 'x\udfff' },
      'message: must not contain unpaired surrogate characters',
    ],
  ])('answers 400 for %s', async (_, url, body, message) => {
    const response = await browser().post(url, body);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message });
  });

  it('keeps well-formed text: a surrogate pair (emoji) in a complaint is fine', async () => {
    const response = await browser().post('/api/public/submit-complaint', {
      ...complaint,
      message: 'The carousel traps focus 😀',
    });
    expect(response.statusCode).toBe(201);
  });

  it('answers 400, not 500, for a multipart upload without a boundary', async () => {
    const visitor = browser();
    const response = await service.app.inject({
      method: 'POST',
      url: '/api/test-openacr',
      remoteAddress: '10.77.1.1',
      headers: {
        'content-type': 'multipart/form-data',
        'x-csrf-token': await visitor.token(),
        cookie: visitor.cookieHeader,
      },
      payload: 'garbage',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain('multipart/form-data');
  });
});

describe('cookies and logs', () => {
  it('marks the anonymous client cookie Secure when cookies are configured Secure', async () => {
    const service = await startAccountService({ secureCookies: true });
    try {
      const response = await service.app.inject({ method: 'GET', url: '/api/csrf-token' });
      const cookie = response.cookies.find((c) => c.name === clientCookieName)!;
      expect(cookie).toMatchObject({ secure: true, httpOnly: true, sameSite: 'Lax' });
    } finally {
      await service.close();
    }
  });

  it('logs URLs without their query strings', () => {
    expect(redactUrl('/api/report/x?email=a%40example.com&token=t')).toBe(
      '/api/report/x?[redacted]',
    );
    expect(redactUrl('/api/scans')).toBe('/api/scans');
  });
});

describe('TRUST_PROXY', () => {
  it('reads a list of addresses and ranges, and refuses anything else', () => {
    expect(loadConfig({}).trustProxy).toEqual([]);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1,loopback' }).trustProxy).toEqual([
      '10.0.0.0/8',
      '127.0.0.1',
      'loopback',
    ]);
    expect(() => loadConfig({ TRUST_PROXY: 'true' })).toThrow(ConfigError);
    expect(() => loadConfig({ TRUST_PROXY: '10.0.0.0/99' })).toThrow(ConfigError);
  });

  it.each([
    [[] as string[], '10.88.0.1'],
    [['10.88.0.1'], '203.0.113.7'],
    [['192.0.2.0/24'], '10.88.0.1'],
  ])(
    'with trusted proxies %j, a log-in through 10.88.0.1 counts against %s',
    async (trustProxy, ip) => {
      const service = await startAccountService({ trustProxy });
      try {
        const visitor = new TestBrowser(service.app, '10.88.0.1');
        const token = await visitor.token();
        const response = await service.app.inject({
          method: 'POST',
          url: '/api/auth/login',
          remoteAddress: '10.88.0.1',
          headers: {
            'content-type': 'application/json',
            'x-forwarded-for': '203.0.113.7',
            'x-csrf-token': token,
            cookie: visitor.cookieHeader,
          },
          payload: JSON.stringify({ email: 'proxied@example.com', password: 'Wr0ng&Pass' }),
        });
        expect(response.statusCode).toBe(401);
        const [row] = await service.database.db
          .select()
          .from(authLogs)
          .where(eq(authLogs.email, 'proxied@example.com'));
        expect(row!.ip).toBe(ip);
      } finally {
        await service.close();
      }
    },
  );
});
