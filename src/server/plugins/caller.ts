import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Owner } from '#db/stores/owner.js';

/**
 * Who is calling, built once per request from the session (plugins/session.ts) and the client
 * cookie (plugins/csrf.ts), so every area sees the same caller and the same owner rule.
 */
export interface Caller {
  /** The cookie-bound client id (plugins/csrf.ts); undefined before the first token fetch. */
  clientId: string | undefined;
  /** The signed-in account; its scans and audits are its own, whichever browser started them. */
  userId: string | undefined;
  /** The signed-in account's e-mail address. */
  email: string | undefined;
  ip: string;
  /** Whose scans and audits the caller sees; undefined for a browser without a client id yet. */
  owner: Owner | undefined;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The caller as the request arrived (a log-in during the request does not change it). */
    caller: Caller;
  }
}

/** The account's when signed in, else the browser's anonymous ones. */
export function ownerOf(caller: Pick<Caller, 'userId' | 'clientId'>): Owner | undefined {
  if (caller.userId) return { userId: caller.userId };
  return caller.clientId ? { visitorId: caller.clientId } : undefined;
}

function callerOf(request: FastifyRequest): Caller {
  const identity = {
    clientId: request.clientId,
    userId: request.session?.userId,
    email: request.session?.user.email,
    ip: request.ip,
  };
  return { ...identity, owner: ownerOf(identity) };
}

export const callerPlugin = fp(
  async function identifyCaller(app: FastifyInstance) {
    app.decorateRequest('caller', null as unknown as Caller);
    app.addHook('onRequest', async (request) => {
      request.caller = callerOf(request);
    });
  },
  { name: 'request-caller', dependencies: ['session', 'csrf'] },
);
