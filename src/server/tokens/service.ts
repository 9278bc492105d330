import type {
  ApiToken,
  ApiTokenScope,
  CreateApiTokenRequest,
  CreatedApiTokenResponse,
  RevokedApiTokenResponse,
} from '#contract/index.js';
import type { AppDb } from '#db/client.js';
import { hashToken, newToken } from '../auth/tokens.js';
import { ConflictError, NotFoundError, UnauthorizedError } from '../http-errors.js';
import { recordAudit } from '../audit-log/service.js';
import * as repo from './repo.js';

/**
 * API tokens (ADR 0025): an organisation's named, scoped, expiring secrets for scripts and CI.
 * The secret is `cfy_` and 43 base64url characters (256 random bits); only its SHA-256 is
 * stored, with its first characters so people can tell tokens apart.
 */

/** What marks a Conformly token in a header, a log or a secret scanner's rules. */
export const tokenSecretPrefix = 'cfy_';
const secretPattern = /^cfy_[A-Za-z0-9_-]{43}$/;
/** `cfy_` and six characters: enough to tell a few dozen tokens apart, too few to guess one. */
const displayPrefixLength = tokenSecretPrefix.length + 6;

/** A token's last-used time moves at most this often: one write per token per interval. */
export const lastUsedIntervalMs = 60_000;

export function newTokenSecret(): string {
  return `${tokenSecretPrefix}${newToken()}`;
}

export function displayPrefixOf(secret: string): string {
  return secret.slice(0, displayPrefixLength);
}

/** The token a request authenticated with, and the organisation it acts for. */
export interface TokenIdentity {
  organisationId: string;
  token: { id: string; name: string; scopes: ApiTokenScope[] };
}

const notRecognised = () =>
  new UnauthorizedError(
    'API token not recognised: check that the whole token was copied, or create a new one in Settings → API tokens',
  );

/**
 * The value of an `Authorization` header this app reads as an API token: the `Bearer` scheme,
 * or a bare `cfy_` token someone forgot to prefix. Other schemes (a proxy's Basic password in
 * front of a staging site) are not ours, and the request is judged by its cookies as usual.
 */
export function isTokenAuthorization(header: string | undefined): header is string {
  if (header === undefined) return false;
  const value = header.trim();
  return /^bearer(\s|$)/i.test(value) || value.startsWith(tokenSecretPrefix);
}

/** The secret in a token `Authorization` header; 401 when the header is malformed. */
export function secretOfAuthorization(header: string): string {
  const match = /^bearer +(\S+)$/i.exec(header.trim());
  if (!match) {
    throw new UnauthorizedError(
      'Malformed Authorization header: send "Authorization: Bearer <token>" with one API token',
    );
  }
  return match[1]!;
}

/**
 * The organisation and token a secret stands for: 401 for an unknown, revoked or expired token,
 * each saying which. Notes its use at most once a minute.
 */
export async function authenticateToken(
  db: AppDb,
  secret: string,
  now = new Date(),
): Promise<TokenIdentity> {
  if (!secretPattern.test(secret)) throw notRecognised();
  const row = await repo.findTokenByHash(db, hashToken(secret));
  if (!row) throw notRecognised();
  if (row.revokedAt) {
    throw new UnauthorizedError(
      `API token revoked on ${row.revokedAt.toISOString().slice(0, 10)}: ask an owner or admin of your organisation for a new one`,
    );
  }
  if (row.expiresAt && row.expiresAt.getTime() <= now.getTime()) {
    throw new UnauthorizedError(
      `API token expired on ${row.expiresAt.toISOString().slice(0, 10)}: create a new one in Settings → API tokens`,
    );
  }
  if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() >= lastUsedIntervalMs) {
    await repo.touchToken(db, row.id, now);
  }
  return {
    organisationId: row.organisationId,
    token: { id: row.id, name: row.name, scopes: row.scopes },
  };
}

/** An owner or admin managing the organisation's tokens (access-rules.ts lets no one else in). */
export interface TokenActor {
  userId: string;
  email: string;
  organisationId: string;
  ip?: string | undefined;
}

export interface TokenServiceDeps {
  db: AppDb;
}

type ListedRow = Awaited<ReturnType<typeof repo.listTokens>>[number];

function toApiToken(row: ListedRow, now: Date): ApiToken {
  const { token } = row;
  const expired = token.expiresAt !== null && token.expiresAt.getTime() <= now.getTime();
  return {
    id: token.id,
    name: token.name,
    prefix: token.prefix,
    scopes: token.scopes,
    createdBy: row.creatorName || row.creatorEmail || null,
    createdAt: token.createdAt.toISOString(),
    expiresAt: token.expiresAt?.toISOString() ?? null,
    lastUsedAt: token.lastUsedAt?.toISOString() ?? null,
    revokedAt: token.revokedAt?.toISOString() ?? null,
    active: token.revokedAt === null && !expired,
  };
}

const dayMs = 86_400_000;

/** A new token; the answer holds its secret, which is never readable again. */
export async function createToken(
  deps: TokenServiceDeps,
  actor: TokenActor,
  input: CreateApiTokenRequest,
  now = new Date(),
): Promise<CreatedApiTokenResponse> {
  const secret = newTokenSecret();
  const expiresAt = new Date(now.getTime() + input.expiresInDays * dayMs);
  const row = await deps.db.transaction(async (tx) => {
    const inserted = await repo.insertToken(tx, {
      organisationId: actor.organisationId,
      name: input.name,
      tokenHash: hashToken(secret),
      prefix: displayPrefixOf(secret),
      scopes: input.scopes,
      createdBy: actor.userId,
      expiresAt,
    });
    await recordAudit(
      tx,
      actor,
      'token.created',
      { type: 'token', id: inserted.id },
      { name: inserted.name, prefix: inserted.prefix, scopes: inserted.scopes, expiresAt },
    );
    return inserted;
  });
  const [listed] = await repo.listTokens(deps.db, actor.organisationId, row.id);
  return {
    token: toApiToken(listed ?? { token: row, creatorName: null, creatorEmail: actor.email }, now),
    secret,
    message: 'Copy this token now: it is shown only once.',
  };
}

export async function listTokens(
  deps: TokenServiceDeps,
  actor: Pick<TokenActor, 'organisationId'>,
  now = new Date(),
): Promise<ApiToken[]> {
  const rows = await repo.listTokens(deps.db, actor.organisationId);
  return rows.map((row) => toApiToken(row, now));
}

/** Revokes one of the organisation's tokens: its next request is a 401. */
export async function revokeToken(
  deps: TokenServiceDeps,
  actor: TokenActor,
  id: string,
  now = new Date(),
): Promise<RevokedApiTokenResponse> {
  const existing = await repo.findToken(deps.db, actor.organisationId, id);
  if (!existing) throw new NotFoundError('Unknown API token');
  if (existing.revokedAt) throw new ConflictError('This API token is already revoked');
  const revoked = await deps.db.transaction(async (tx) => {
    const changed = await repo.revokeToken(tx, actor.organisationId, id, now);
    if (!changed) throw new ConflictError('This API token is already revoked');
    await recordAudit(
      tx,
      actor,
      'token.revoked',
      { type: 'token', id },
      { name: changed.name, prefix: changed.prefix },
    );
    return changed;
  });
  const [listed] = await repo.listTokens(deps.db, actor.organisationId, id);
  return {
    token: toApiToken(listed ?? { token: revoked, creatorName: null, creatorEmail: null }, now),
    message: `API token "${revoked.name}" revoked: requests with it are refused from now on.`,
  };
}
