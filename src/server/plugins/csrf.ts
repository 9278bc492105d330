import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import cookie from '@fastify/cookie';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ForbiddenError } from '../http-errors.js';

/**
 * CSRF protection bound to a cookie until accounts exist. The browser gets a random client id in
 * an httpOnly, SameSite=Lax cookie; `GET /api/csrf-token` answers the token derived from it, and
 * every non-GET call must send that token in `X-CSRF-Token`. Another site can neither read the
 * cookie nor our answers (no CORS), so it cannot produce the header. The token is derived without
 * a server-side key, so every server and worker agrees without shared state; sessions will carry
 * their own secret (sessions.csrf_secret) once accounts exist.
 *
 * The client id is also "the caller" for scans until accounts exist (my scans, my latest scan).
 */

export const clientCookieName = 'conformly_client';
const safeMethods = new Set(['GET', 'HEAD', 'OPTIONS']);

declare module 'fastify' {
  interface FastifyRequest {
    /** The caller's cookie-bound id; undefined when the browser has none yet. */
    clientId: string | undefined;
  }
}

export function csrfTokenFor(clientId: string): string {
  return createHash('sha256').update(`conformly-csrf:${clientId}`).digest('base64url');
}

function readClientId(request: FastifyRequest): string | undefined {
  const value = request.cookies[clientCookieName];
  return value && /^[A-Za-z0-9_-]{32,64}$/.test(value) ? value : undefined;
}

function sameToken(sent: string, expected: string): boolean {
  const a = Buffer.from(sent);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The caller's id, creating it (and its cookie) on first contact. */
export function ensureClientId(request: FastifyRequest, reply: FastifyReply): string {
  if (request.clientId) return request.clientId;
  const clientId = randomBytes(24).toString('base64url');
  reply.setCookie(clientCookieName, clientId, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: request.protocol === 'https',
    maxAge: 60 * 60 * 24 * 365,
  });
  request.clientId = clientId;
  return clientId;
}

export const csrfPlugin = fp(
  async function csrf(app: FastifyInstance) {
    await app.register(cookie);
    app.decorateRequest('clientId', undefined);

    app.addHook('onRequest', async (request) => {
      request.clientId = readClientId(request);
      if (safeMethods.has(request.method)) return;
      const sent = request.headers['x-csrf-token'];
      if (
        !request.clientId ||
        typeof sent !== 'string' ||
        !sameToken(sent, csrfTokenFor(request.clientId))
      ) {
        throw new ForbiddenError(
          'Missing or invalid CSRF token: fetch GET /api/csrf-token and send it as X-CSRF-Token.',
        );
      }
    });

    app.get('/api/csrf-token', async (request, reply) => {
      const clientId = ensureClientId(request, reply);
      reply.header('cache-control', 'no-store');
      return { csrfToken: csrfTokenFor(clientId) };
    });
  },
  { name: 'csrf', dependencies: ['errors'] },
);
