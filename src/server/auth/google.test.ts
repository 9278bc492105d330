import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authLogs, users } from '#db/schema/index.js';
import {
  startAccountService,
  TestBrowser,
  type AccountService,
} from '../../../test/support/auth.js';
import { startOidcProvider, type TestOidcProvider } from '../../../test/support/oidc-provider.js';
import { sessionCookieName } from '../plugins/session.js';

/**
 * Google sign-in end to end against an OpenID provider on 127.0.0.1: initiate, the provider's
 * authorize endpoint, the callback, the session cookie, /api/user/me.
 */

const publicUrl = 'http://127.0.0.1:3000';
const client = {
  clientId: 'conformly-test-client',
  clientSecret: 'conformly-test-secret',
  redirectUri: `${publicUrl}/api/auth/google/callback`,
};

let provider: TestOidcProvider;
let service: AccountService;

beforeAll(async () => {
  provider = await startOidcProvider(client);
  service = await startAccountService({
    publicUrl,
    google: {
      clientId: client.clientId,
      clientSecret: client.clientSecret,
      issuer: provider.issuer,
    },
  });
});

afterAll(async () => {
  await service?.close();
  await provider?.close();
});

/** Follows initiate -> provider -> callback as a browser would; answers the callback response. */
async function signInWithGoogle(browser: TestBrowser, tamper?: (callback: URL) => void) {
  const initiate = await browser.get('/api/auth/google/initiate');
  expect(initiate.statusCode).toBe(302);
  const authorizeUrl = new URL(initiate.headers.location as string);
  expect(authorizeUrl.origin).toBe(provider.issuer);
  expect(authorizeUrl.searchParams.get('code_challenge_method')).toBe('S256');
  expect(authorizeUrl.searchParams.get('state')).toBeTruthy();
  expect(authorizeUrl.searchParams.get('nonce')).toBeTruthy();

  const atProvider = await fetch(authorizeUrl, { redirect: 'manual' });
  expect(atProvider.status).toBe(302);
  const callback = new URL(atProvider.headers.get('location')!);
  expect(callback.href.startsWith(client.redirectUri)).toBe(true);
  tamper?.(callback);
  return browser.get(`${callback.pathname}${callback.search}`);
}

describe('Google sign-in', () => {
  it('creates an account from a verified Google e-mail and signs the browser in', async () => {
    provider.account = {
      sub: 'g-new',
      email: 'New.Person@example.com',
      email_verified: true,
      name: 'New Person',
    };
    const browser = new TestBrowser(service.app);
    const callback = await signInWithGoogle(browser);
    expect(callback.statusCode).toBe(302);
    expect(callback.headers.location).toBe('/app/dashboard');
    expect(browser.cookies.get(sessionCookieName)).toBeDefined();

    const me = await browser.get('/api/user/me');
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({
      email: 'new.person@example.com',
      name: 'New Person',
      googleLinked: true,
      hasPassword: false,
      emailVerified: true,
    });
    // The client proved the PKCE verifier and its secret at the token endpoint.
    const tokenRequest = provider.tokenRequests.at(-1)!;
    expect(tokenRequest.get('code_verifier')).toMatch(/^[A-Za-z0-9_-]{43,}$/);
    expect(tokenRequest.get('client_secret')).toBe(client.clientSecret);
  });

  it('links an existing account by its verified e-mail, dropping an unproven password and its sessions', async () => {
    const browser = new TestBrowser(service.app);
    const registered = await browser.post('/api/auth/register', {
      email: 'linked@example.com',
      password: 'Str0ng&Pass',
    });
    expect(registered.statusCode).toBe(201);
    provider.account = {
      sub: 'g-linked',
      email: 'linked@example.com',
      email_verified: true,
      name: 'L',
    };
    const other = new TestBrowser(service.app);
    expect((await signInWithGoogle(other)).headers.location).toBe('/app/dashboard');
    const me = (await other.get('/api/user/me')).json();
    // Register asked no proof of the address: whoever set that password may be a stranger.
    expect(me).toMatchObject({
      id: registered.json().user.id,
      googleLinked: true,
      hasPassword: false,
      emailVerified: true,
    });
    expect((await browser.get('/api/user/me')).statusCode).toBe(401);
    const logs = await service.database.db
      .select()
      .from(authLogs)
      .where(eq(authLogs.email, 'linked@example.com'));
    expect(logs).toContainEqual(
      expect.objectContaining({
        event: 'google_login',
        success: true,
        details: { outcome: 'linked' },
      }),
    );
  });

  it('refuses to link or create an account for an unverified Google e-mail', async () => {
    const owner = new TestBrowser(service.app);
    await owner.post('/api/auth/register', {
      email: 'victim@example.com',
      password: 'Str0ng&Pass',
    });
    provider.account = {
      sub: 'g-attacker',
      email: 'victim@example.com',
      email_verified: false,
      name: 'X',
    };
    const attacker = new TestBrowser(service.app);
    const callback = await signInWithGoogle(attacker);
    expect(callback.headers.location).toBe('/app/login?error=google');
    expect((await attacker.get('/api/user/me')).statusCode).toBe(401);
    const [victim] = await service.database.db
      .select()
      .from(users)
      .where(eq(users.email, 'victim@example.com'));
    expect(victim!.googleId).toBeNull();
  });

  it('refuses a callback whose state does not match the browser’s', async () => {
    provider.account = {
      sub: 'g-state',
      email: 'state@example.com',
      email_verified: true,
      name: 'S',
    };
    const browser = new TestBrowser(service.app);
    const callback = await signInWithGoogle(browser, (url) =>
      url.searchParams.set('state', 'forged'),
    );
    expect(callback.headers.location).toBe('/app/login?error=google');
    expect((await browser.get('/api/user/me')).statusCode).toBe(401);
  });

  it('refuses a callback in a browser that did not start the sign-in', async () => {
    provider.account = {
      sub: 'g-csrf',
      email: 'csrf@example.com',
      email_verified: true,
      name: 'C',
    };
    const starter = new TestBrowser(service.app);
    const initiate = await starter.get('/api/auth/google/initiate');
    const atProvider = await fetch(initiate.headers.location as string, { redirect: 'manual' });
    const callback = new URL(atProvider.headers.get('location')!);
    const victim = new TestBrowser(service.app);
    const response = await victim.get(`${callback.pathname}${callback.search}`);
    expect(response.headers.location).toBe('/app/login?error=google');
    expect(victim.cookies.has(sessionCookieName)).toBe(false);
  });
});

describe('the sign-in providers the web app offers', () => {
  it('tells the web app that Google sign-in is on when it is configured', async () => {
    const response = await new TestBrowser(service.app).get('/api/auth/providers');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ google: true });
  });
});

describe('Google sign-in switched off', () => {
  it('answers 404 when GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET are not set', async () => {
    const plain = await startAccountService();
    try {
      const browser = new TestBrowser(plain.app);
      // The web app asks first and shows no "Continue with Google" then.
      expect((await browser.get('/api/auth/providers')).json()).toEqual({ google: false });
      const response = await browser.get('/api/auth/google/initiate');
      expect(response.statusCode).toBe(404);
      expect(response.json().message).toContain('Google sign-in is not configured');
    } finally {
      await plain.close();
    }
  });
});
