import cookie from '@fastify/cookie';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { AppDb } from '#db/client.js';
import {
  deleteSession,
  findActiveSession,
  startSession,
  touchSession,
  type ActiveSession,
} from '../auth/sessions.js';
import { isTokenAuthorization } from '../tokens/service.js';

/**
 * The session cookie: an httpOnly, SameSite=Lax cookie holding the id of a session stored by
 * auth/sessions.ts. Every request learns its session here; auth's routes start and end them.
 */

export const sessionCookieName = 'conformly_session';

export interface SessionOptions {
  db: AppDb;
  ttlHours: number;
  /** Secure cookies even when this request came over plain http (TLS ends at a proxy). */
  secureCookies: boolean;
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
      // A request with an API token is judged by the token alone (plugins/caller.ts): a session
      // cookie the same client happens to hold neither widens nor replaces it.
      if (isTokenAuthorization(request.headers.authorization)) return;
      request.session = await findActiveSession(options.db, request.cookies[sessionCookieName]);
      // Settings lists each browser with when it was last seen.
      if (request.session) await touchSession(options.db, request.session);
    });

    const store: SessionStore = {
      async start(request, reply, userId) {
        const { token, session } = await startSession(options.db, {
          userId,
          ttlMs,
          ip: request.ip,
          userAgent: request.headers['user-agent'] ?? null,
          replacing: request.session?.idHash,
        });
        reply.setCookie(sessionCookieName, token, {
          ...cookieOptions(request),
          maxAge: Math.floor(ttlMs / 1000),
        });
        request.session = session;
        return session;
      },
      async end(request, reply) {
        if (request.session) await deleteSession(options.db, request.session.idHash);
        request.session = undefined;
        reply.clearCookie(sessionCookieName, cookieOptions(request));
      },
    };
    app.decorate('sessions', store);
  },
  { name: 'session', dependencies: ['errors'] },
);
