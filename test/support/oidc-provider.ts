import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';

/**
 * A small OpenID Connect provider on 127.0.0.1 standing in for Google: discovery, an authorize
 * endpoint that signs in `account` at once (no login screen), a token endpoint that checks the
 * client secret, the redirect URI and the PKCE verifier, RS256 ID tokens and their JWKS.
 */

export interface ProviderAccount {
  sub: string;
  email: string;
  email_verified: boolean;
  name: string;
}

export interface TestOidcProvider {
  issuer: string;
  /** Who the next authorize request signs in; tests change it. */
  account: ProviderAccount;
  /** Token requests seen, for checking what the client sent. */
  tokenRequests: URLSearchParams[];
  close(): Promise<void>;
}

interface PendingCode {
  clientId: string;
  redirectUri: string;
  codeChallenge: string;
  nonce: string | undefined;
  account: ProviderAccount;
}

export async function startOidcProvider(client: {
  clientId: string;
  clientSecret: string;
  redirectUri: string;
}): Promise<TestOidcProvider> {
  const { privateKey, publicKey } = await generateKeyPair('RS256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'test-key', alg: 'RS256', use: 'sig' };
  const codes = new Map<string, PendingCode>();
  const tokenRequests: URLSearchParams[] = [];
  let issuer = '';

  const json = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
    res.end(JSON.stringify(body));
  };

  const readBody = async (req: IncomingMessage) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  };

  function authorize(url: URL, res: ServerResponse) {
    const q = url.searchParams;
    if (q.get('client_id') !== client.clientId || q.get('redirect_uri') !== client.redirectUri) {
      return json(res, 400, { error: 'invalid_request', error_description: 'unknown client' });
    }
    const back = new URL(client.redirectUri);
    back.searchParams.set('iss', issuer);
    if (q.get('state')) back.searchParams.set('state', q.get('state')!);
    const scopes = (q.get('scope') ?? '').split(' ');
    if (
      q.get('response_type') !== 'code' ||
      !scopes.includes('openid') ||
      q.get('code_challenge_method') !== 'S256' ||
      !q.get('code_challenge')
    ) {
      back.searchParams.set('error', 'invalid_request');
    } else {
      const code = randomBytes(16).toString('base64url');
      codes.set(code, {
        clientId: client.clientId,
        redirectUri: client.redirectUri,
        codeChallenge: q.get('code_challenge')!,
        nonce: q.get('nonce') ?? undefined,
        account: { ...provider.account },
      });
      back.searchParams.set('code', code);
    }
    res.writeHead(302, { location: back.href });
    res.end();
  }

  async function token(req: IncomingMessage, res: ServerResponse) {
    const params = new URLSearchParams(await readBody(req));
    tokenRequests.push(params);
    let clientId = params.get('client_id');
    let clientSecret = params.get('client_secret');
    const basic = /^Basic (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    if (basic) {
      const [id, secret] = Buffer.from(basic, 'base64').toString('utf8').split(':');
      clientId = decodeURIComponent(id ?? '');
      clientSecret = decodeURIComponent(secret ?? '');
    }
    if (clientId !== client.clientId || clientSecret !== client.clientSecret) {
      return json(res, 401, { error: 'invalid_client' });
    }
    const code = params.get('code') ?? '';
    const pending = codes.get(code);
    codes.delete(code);
    const verifier = params.get('code_verifier') ?? '';
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    if (
      params.get('grant_type') !== 'authorization_code' ||
      !pending ||
      pending.redirectUri !== params.get('redirect_uri') ||
      pending.codeChallenge !== challenge
    ) {
      return json(res, 400, { error: 'invalid_grant' });
    }
    const { sub, ...profile } = pending.account;
    const idToken = await new SignJWT({
      ...profile,
      ...(pending.nonce ? { nonce: pending.nonce } : {}),
    })
      .setProtectedHeader({ alg: 'RS256', kid: jwk.kid })
      .setIssuer(issuer)
      .setAudience(client.clientId)
      .setSubject(sub)
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(privateKey);
    json(res, 200, {
      access_token: randomBytes(16).toString('base64url'),
      token_type: 'Bearer',
      expires_in: 3600,
      scope: 'openid email profile',
      id_token: idToken,
    });
  }

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', issuer);
    if (req.method === 'GET' && url.pathname === '/.well-known/openid-configuration') {
      return json(res, 200, {
        issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        jwks_uri: `${issuer}/jwks`,
        response_types_supported: ['code'],
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: ['RS256'],
        scopes_supported: ['openid', 'email', 'profile'],
        token_endpoint_auth_methods_supported: ['client_secret_post', 'client_secret_basic'],
        code_challenge_methods_supported: ['S256'],
        grant_types_supported: ['authorization_code'],
        authorization_response_iss_parameter_supported: true,
      });
    }
    if (req.method === 'GET' && url.pathname === '/jwks') return json(res, 200, { keys: [jwk] });
    if (req.method === 'GET' && url.pathname === '/authorize') return authorize(url, res);
    if (req.method === 'POST' && url.pathname === '/token') {
      token(req, res).catch((error: unknown) => json(res, 500, { error: String(error) }));
      return;
    }
    json(res, 404, { error: 'not_found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const provider: TestOidcProvider = {
    issuer,
    account: { sub: 'google-user-1', email: 'ann@example.com', email_verified: true, name: 'Ann' },
    tokenRequests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return provider;
}
