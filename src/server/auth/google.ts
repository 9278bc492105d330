import * as client from 'openid-client';
import { InvalidError, NotFoundError } from '../http-errors.js';

/**
 * Google sign-in as an OpenID Connect relying party (openid-client): authorization code flow with
 * PKCE (S256), state and nonce. The issuer is discovered from its metadata on first use, so tests
 * point it at a local provider and production at https://accounts.google.com.
 */

export interface GoogleSettings {
  clientId: string;
  clientSecret: string;
  issuer: string;
  /** `${PUBLIC_URL}/api/auth/google/callback`, registered with Google. */
  redirectUri: string;
}

/** What the browser keeps (in a short-lived httpOnly cookie) between initiate and callback. */
export interface PendingGoogleSignIn {
  state: string;
  nonce: string;
  codeVerifier: string;
}

export interface GoogleClaims {
  sub: string;
  email: string | undefined;
  emailVerified: boolean;
  name: string | undefined;
}

export const notConfigured = () =>
  new NotFoundError(
    'Google sign-in is not configured: set GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET.',
  );

export class GoogleSignIn {
  private configuration: Promise<client.Configuration> | undefined;

  constructor(private readonly settings: GoogleSettings) {}

  /** Discovery runs once; a failed attempt is forgotten so the next sign-in tries again. */
  private config(): Promise<client.Configuration> {
    this.configuration ??= client
      .discovery(
        new URL(this.settings.issuer),
        this.settings.clientId,
        undefined,
        client.ClientSecretPost(this.settings.clientSecret),
        // Plain http only for a local test provider; Google itself is https.
        this.settings.issuer.startsWith('http:') ? { execute: [client.allowInsecureRequests] } : {},
      )
      .catch((error: unknown) => {
        this.configuration = undefined;
        throw error;
      });
    return this.configuration;
  }

  /** Where to send the browser, and what to remember until it comes back. */
  async start(): Promise<{ url: URL; pending: PendingGoogleSignIn }> {
    const config = await this.config();
    const pending: PendingGoogleSignIn = {
      state: client.randomState(),
      nonce: client.randomNonce(),
      codeVerifier: client.randomPKCECodeVerifier(),
    };
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: this.settings.redirectUri,
      scope: 'openid email profile',
      code_challenge: await client.calculatePKCECodeChallenge(pending.codeVerifier),
      code_challenge_method: 'S256',
      state: pending.state,
      nonce: pending.nonce,
    });
    return { url, pending };
  }

  /**
   * Checks the callback (state), redeems the code (PKCE verifier, client secret) and verifies the
   * ID token (signature from the issuer's JWKS, audience, expiry, nonce).
   */
  async finish(callbackQuery: string, pending: PendingGoogleSignIn): Promise<GoogleClaims> {
    const config = await this.config();
    const currentUrl = new URL(this.settings.redirectUri);
    currentUrl.search = callbackQuery;
    let tokens: Awaited<ReturnType<typeof client.authorizationCodeGrant>>;
    try {
      tokens = await client.authorizationCodeGrant(config, currentUrl, {
        expectedState: pending.state,
        expectedNonce: pending.nonce,
        pkceCodeVerifier: pending.codeVerifier,
        idTokenExpected: true,
      });
    } catch (error) {
      throw new InvalidError(
        `Google sign-in failed: ${error instanceof Error ? error.message : 'the answer was not valid'}`,
      );
    }
    const claims = tokens.claims();
    if (!claims) throw new InvalidError('Google sign-in failed: no ID token.');
    return {
      sub: claims.sub,
      email: typeof claims.email === 'string' ? claims.email : undefined,
      emailVerified: claims.email_verified === true,
      name: typeof claims.name === 'string' ? claims.name : undefined,
    };
  }
}

export function encodePending(pending: PendingGoogleSignIn): string {
  return Buffer.from(JSON.stringify(pending)).toString('base64url');
}

export function decodePending(value: string | undefined): PendingGoogleSignIn | undefined {
  if (!value) return undefined;
  try {
    const parsed = JSON.parse(Buffer.from(value, 'base64url').toString('utf8')) as unknown;
    const { state, nonce, codeVerifier } = (parsed ?? {}) as Record<string, unknown>;
    if (
      typeof state === 'string' &&
      typeof nonce === 'string' &&
      typeof codeVerifier === 'string'
    ) {
      return { state, nonce, codeVerifier };
    }
  } catch {
    // A cookie that is not ours is as good as none.
  }
  return undefined;
}
