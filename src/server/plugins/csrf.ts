import { createHash, randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { z } from 'zod';
import { ForbiddenError } from '../http-errors.js';
import { sessionCsrfToken } from '../auth/sessions.js';
import { sameSecret } from '../auth/tokens.js';
import { isTokenAuthorization } from '../tokens/service.js';

/**
 * CSRF protection. A signed-in browser's token is bound to its session (a MAC of the session's
 * own secret, auth/sessions.ts), so it changes at every log-in and dies with the session. An
 * anonymous visitor, who may still use the public scan tools, gets a random client id in an
 * httpOnly, SameSite=Lax cookie and a token derived from it. `GET /api/csrf-token` answers the
 * token that applies, and every non-GET call must send it in `X-CSRF-Token`. Another site can
 * neither read the cookies nor our answers (no CORS), so it cannot produce the header.
 *
 * The client id is also "the caller" for anonymous scans (my scans, my latest scan).
 *
 * A request with an API token (`Authorization: Bearer`) needs no CSRF token: a browser never
 * adds that header on its own, so another site cannot make it send one, and the token is judged
 * alone (its session cookie is ignored, plugins/session.ts; a bad token is a 401, plugins/caller.ts).
 *
 * A route that no browser calls and that proves its caller otherwise sets `config: { csrf: false }`:
 * the Stripe webhook, signed by Stripe with the endpoint's secret, uses no cookie to be forged.
 */

export const clientCookieName = 'conformly_client';
const safeMethods = new Set(['GET', 'HEAD', 'OPTIONS']);

declare module 'fastify' {
  interface FastifyRequest {
    /** The caller's cookie-bound id; undefined when the browser has none yet. */
    clientId: string | undefined;
  }
  interface FastifyContextConfig {
    /** False on a route authenticated by other means than the browser's cookies (a webhook). */
    csrf?: boolean;
  }
  interface FastifyInstance {
    /** The client cookie follows the session cookie's Secure rule (config secureCookies). */
    clientCookieSecure: boolean;
  }
}

export function csrfTokenFor(clientId: string): string {
  return createHash('sha256').update(`conformly-csrf:${clientId}`).digest('base64url');
}

function readClientId(request: FastifyRequest): string | undefined {
  const value = request.cookies[clientCookieName];
  return value && /^[A-Za-z0-9_-]{32,64}$/.test(value) ? value : undefined;
}

/** The token this request must carry: its session's, or else its client cookie's. */
function expectedToken(request: FastifyRequest): string | undefined {
  if (request.session) return sessionCsrfToken(request.session);
  return request.clientId ? csrfTokenFor(request.clientId) : undefined;
}

export interface CsrfOptions {
  /** Secure cookies even when this request came over plain http (TLS ends at a proxy). */
  secureCookies: boolean;
}

/** The caller's id, creating it (and its cookie) on first contact. */
export function ensureClientId(request: FastifyRequest, reply: FastifyReply): string {
  if (request.clientId) return request.clientId;
  const clientId = randomBytes(24).toString('base64url');
  reply.setCookie(clientCookieName, clientId, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: request.server.clientCookieSecure || request.protocol === 'https',
    maxAge: 60 * 60 * 24 * 365,
  });
  request.clientId = clientId;
  return clientId;
}

export const csrfPlugin = fp<CsrfOptions>(
  async function csrf(app: FastifyInstance, options) {
    app.decorateRequest('clientId', undefined);
    app.decorate('clientCookieSecure', options.secureCookies);

    app.addHook('onRequest', async (request) => {
      request.clientId = readClientId(request);
      if (safeMethods.has(request.method)) return;
      if (request.routeOptions.config.csrf === false) return;
      if (isTokenAuthorization(request.headers.authorization)) return;
      const sent = request.headers['x-csrf-token'];
      const expected = expectedToken(request);
      if (!expected || typeof sent !== 'string' || !sameSecret(sent, expected)) {
        throw new ForbiddenError(
          'Missing or invalid CSRF token: fetch GET /api/csrf-token and send it as X-CSRF-Token.',
        );
      }
    });

    const schema = {
      operationId: 'getCsrfToken',
      summary: 'The CSRF token to send as X-CSRF-Token on every call other than GET',
      description: "Sets the anonymous visitor's client cookie the token is bound to, if missing.",
      tags: ['Account'],
      response: { 200: z.object({ csrfToken: z.string() }) },
    };
    app.get('/api/csrf-token', { schema }, async (request, reply) => {
      const clientId = ensureClientId(request, reply);
      reply.header('cache-control', 'no-store');
      return {
        csrfToken: request.session ? sessionCsrfToken(request.session) : csrfTokenFor(clientId),
      };
    });
  },
  { name: 'csrf', dependencies: ['errors', 'session'] },
);
