import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { AppDb } from '#db/client.js';
import type { ApiTokenScope, OrganisationRole } from '#contract/index.js';
import type { Owner } from '#db/stores/owner.js';
import { resolveMembership } from '../organisations/repo.js';
import {
  authenticateToken,
  isTokenAuthorization,
  secretOfAuthorization,
} from '../tokens/service.js';

/** An API token that authenticated the request (`Authorization: Bearer`). */
export interface CallerToken {
  id: string;
  name: string;
  scopes: ApiTokenScope[];
}

/**
 * Who is calling, built once per request from the session (plugins/session.ts), the client
 * cookie (plugins/csrf.ts) or an API token, so every area sees the same caller and the same owner
 * rule.
 */
export interface Caller {
  /** The cookie-bound client id (plugins/csrf.ts); undefined before the first token fetch. */
  clientId: string | undefined;
  /** The signed-in person (undefined for an API token and for anonymous visitors). */
  userId: string | undefined;
  /** The signed-in person's e-mail address. */
  email: string | undefined;
  ip: string;
  /**
   * The organisation whose domains, scans, complaints and billing the caller works on: the
   * session's chosen organisation while the person is still a member, else their personal one;
   * a token's organisation. Stored rows name it in their `user_id` column (ADR 0025).
   */
  organisationId: string | undefined;
  /** The caller's role in that organisation; a token acts with its scopes instead. */
  role: OrganisationRole | undefined;
  token: CallerToken | undefined;
  /** Whose scans and audits the caller sees; undefined for a browser without a client id yet. */
  owner: Owner | undefined;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The caller as the request arrived (a log-in during the request does not change it). */
    caller: Caller;
  }
}

/** The organisation's when signed in or holding a token, else the browser's anonymous ones. */
export function ownerOf(caller: Pick<Caller, 'organisationId' | 'clientId'>): Owner | undefined {
  if (caller.organisationId) return { userId: caller.organisationId };
  return caller.clientId ? { visitorId: caller.clientId } : undefined;
}

/**
 * A token caller: the token's organisation and scopes, no person and no role. Unknown, revoked
 * and expired tokens and malformed headers are a 401 before anything else is read.
 */
async function tokenCallerOf(db: AppDb, request: FastifyRequest, header: string): Promise<Caller> {
  const { organisationId, token } = await authenticateToken(db, secretOfAuthorization(header));
  const identity = {
    clientId: request.clientId,
    userId: undefined,
    email: undefined,
    ip: request.ip,
    organisationId,
    role: undefined,
    token,
  };
  return { ...identity, owner: ownerOf(identity) };
}

async function callerOf(db: AppDb, request: FastifyRequest): Promise<Caller> {
  const header = request.headers.authorization;
  if (isTokenAuthorization(header)) return tokenCallerOf(db, request, header);
  const session = request.session;
  const membership = session
    ? await resolveMembership(db, session.userId, session.organisationId)
    : undefined;
  const identity = {
    clientId: request.clientId,
    userId: session?.userId,
    email: session?.user.email,
    ip: request.ip,
    organisationId: membership?.organisationId,
    role: membership?.role,
    token: undefined,
  };
  return { ...identity, owner: ownerOf(identity) };
}

export const callerPlugin = fp<{ db: AppDb }>(
  async function identifyCaller(app: FastifyInstance, options) {
    app.decorateRequest('caller', null as unknown as Caller);
    app.addHook('onRequest', async (request) => {
      request.caller = await callerOf(options.db, request);
    });
  },
  { name: 'request-caller', dependencies: ['session', 'csrf'] },
);
