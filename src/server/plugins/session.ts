import { createHmac, randomBytes } from 'node:crypto';
import cookie from '@fastify/cookie';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { AppDb } from '../../db/client.js';
import * as repo from '../auth/repo.js';
import { hashToken, newToken } from '../auth/tokens.js';

/**
 * Server-side sessions. The browser holds a random id in an httpOnly, SameSite=Lax cookie; the
 * database holds only its SHA-256 (a leaked table signs nobody in), the account, an expiry and the
 * CSRF secret the session's token is derived from. Any server can read any session.
 */

export const sessionCookieName = 'conformly_session';

export interface SessionOptions {
  db: AppDb;
  ttlHours: number;
  /** Secure cookies even when this request came over plain http (TLS ends at a proxy). */
  secureCookies: boolean;
}

export interface ActiveSession {
  idHash: string;
  userId: string;
  csrfSecret: string;
  expiresAt: Date;
  user: repo.UserRecord;
}

export interface SessionStore {
  /** Signs the browser in as `userId` under a new session id (the old one, if any, is dropped). */
  start(request: FastifyRequest, reply: FastifyReply, userId: string): Promise<ActiveSession>;
  /** Signs the browser out: the row goes and the cookie is cleared. */
  end(request: FastifyRequest, reply: FastifyReply): Promise<void>;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in session; undefined for anonymous visitors. */
    session: ActiveSession | undefined;
  }
  interface FastifyInstance {
    sessions: SessionStore;
  }
}

/** The CSRF token of a session: a MAC of its secret, so the secret itself never leaves the server. */
export function sessionCsrfToken(session: Pick<ActiveSession, 'csrfSecret'>): string {
  return createHmac('sha256', session.csrfSecret).update('conformly-csrf').digest('base64url');
}

const tokenPattern = /^[A-Za-z0-9_-]{43}$/;

export const sessionPlugin = fp<SessionOptions>(
  async function session(app: FastifyInstance, options) {
    await app.register(cookie);
    app.decorateRequest('session', undefined);
    const ttlMs = options.ttlHours * 3_600_000;

    const cookieOptions = (request: FastifyRequest) => ({
      path: '/',
      httpOnly: true,
      sameSite: 'lax' as const,
      secure: options.secureCookies || request.protocol === 'https',
    });

    app.addHook('onRequest', async (request) => {
      const token = request.cookies[sessionCookieName];
      if (!token || !tokenPattern.test(token)) return;
      const found = await repo.findSession(options.db, hashToken(token), new Date());
      if (!found) return;
      request.session = { ...found.session, user: found.user };
    });

    const store: SessionStore = {
      async start(request, reply, userId) {
        const now = new Date();
        if (request.session) await repo.deleteSession(options.db, request.session.idHash);
        // Expired rows are swept as people sign in, so the table stays the size of live sessions.
        await repo.deleteExpiredSessions(options.db, now);
        const token = newToken();
        const row = {
          idHash: hashToken(token),
          userId,
          csrfSecret: randomBytes(32).toString('base64url'),
          ip: request.ip,
          userAgent: request.headers['user-agent'] ?? null,
          expiresAt: new Date(now.getTime() + ttlMs),
        };
        await repo.insertSession(options.db, row);
        const user = await repo.findUserById(options.db, userId);
        if (!user) throw new Error(`no account ${userId} for a new session`);
        reply.setCookie(sessionCookieName, token, {
          ...cookieOptions(request),
          maxAge: Math.floor(ttlMs / 1000),
        });
        request.session = { ...row, user };
        return request.session;
      },
      async end(request, reply) {
        if (request.session) await repo.deleteSession(options.db, request.session.idHash);
        request.session = undefined;
        reply.clearCookie(sessionCookieName, cookieOptions(request));
      },
    };
    app.decorate('sessions', store);
  },
  { name: 'session', dependencies: ['errors'] },
);
