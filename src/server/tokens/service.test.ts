import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '#db/client.js';
import { apiTokens } from '#db/schema/index.js';
import { seedUser } from '../../../test/support/dashboard-seed.js';
import { openTestPglite } from '../../../test/support/db.js';
import {
  authenticateToken,
  createToken,
  isTokenAuthorization,
  lastUsedIntervalMs,
  listTokens,
  revokeToken,
  secretOfAuthorization,
} from './service.js';

/** API tokens without HTTP: what a secret stands for, when it stops working, what is kept. */

let database: Database;
let actor: { userId: string; email: string; organisationId: string };

beforeAll(async () => {
  database = await openTestPglite();
  const userId = await seedUser(database.db, { email: 'owner@service.test' });
  actor = { userId, email: 'owner@service.test', organisationId: userId };
}, 180_000);

afterAll(async () => {
  await database?.close();
});

const lastUsedOf = async (id: string) =>
  (
    await database.db
      .select({ lastUsedAt: apiTokens.lastUsedAt })
      .from(apiTokens)
      .where(eq(apiTokens.id, id))
  )[0]!.lastUsedAt;

describe('authenticateToken', () => {
  it('answers the organisation and scopes, and notes its use at most once a minute', async () => {
    const start = new Date('2030-01-01T00:00:00Z');
    const { token, secret } = await createToken(
      { db: database.db },
      actor,
      { name: 'CI', scopes: ['scans:read', 'results:upload'], expiresInDays: 30 },
      start,
    );
    const identity = await authenticateToken(database.db, secret, start);
    expect(identity).toEqual({
      organisationId: actor.organisationId,
      token: { id: token.id, name: 'CI', scopes: ['scans:read', 'results:upload'] },
    });
    expect(await lastUsedOf(token.id)).toEqual(start);
    const soon = new Date(start.getTime() + lastUsedIntervalMs - 1);
    await authenticateToken(database.db, secret, soon);
    expect(await lastUsedOf(token.id)).toEqual(start);
    const later = new Date(start.getTime() + lastUsedIntervalMs);
    await authenticateToken(database.db, secret, later);
    expect(await lastUsedOf(token.id)).toEqual(later);
  });

  it('refuses a token from the moment it expires, and lists it as inactive', async () => {
    const start = new Date('2030-02-01T00:00:00Z');
    const { token, secret } = await createToken(
      { db: database.db },
      actor,
      { name: 'Short', scopes: ['scans:read'], expiresInDays: 1 },
      start,
    );
    const lastMoment = new Date(start.getTime() + 86_400_000 - 1);
    await expect(authenticateToken(database.db, secret, lastMoment)).resolves.toBeDefined();
    const expiry = new Date(start.getTime() + 86_400_000);
    await expect(authenticateToken(database.db, secret, expiry)).rejects.toThrow(
      /^API token expired on 2030-02-02/,
    );
    const listed = await listTokens({ db: database.db }, actor, expiry);
    expect(listed.find((row) => row.id === token.id)).toMatchObject({ active: false });
  });

  it('refuses a revoked token and one that was never issued', async () => {
    const { token, secret } = await createToken({ db: database.db }, actor, {
      name: 'Gone',
      scopes: ['scans:read'],
      expiresInDays: 30,
    });
    await revokeToken({ db: database.db }, actor, token.id);
    await expect(authenticateToken(database.db, secret)).rejects.toThrow(/^API token revoked/);
    const forged = `${secret.slice(0, -1)}${secret.endsWith('A') ? 'B' : 'A'}`;
    await expect(authenticateToken(database.db, forged)).rejects.toThrow(/not recognised/);
  });
});

describe('the Authorization header', () => {
  it('is a token request for the Bearer scheme or a bare cfy_ token, not for other schemes', () => {
    expect(isTokenAuthorization(undefined)).toBe(false);
    expect(isTokenAuthorization('Basic dXNlcjpwYXNz')).toBe(false);
    expect(isTokenAuthorization('Bearer x')).toBe(true);
    expect(isTokenAuthorization('bearer x')).toBe(true);
    expect(isTokenAuthorization('Bearer')).toBe(true);
    expect(isTokenAuthorization('cfy_abc')).toBe(true);
  });

  it('holds one secret after the scheme', () => {
    expect(secretOfAuthorization('Bearer cfy_abc')).toBe('cfy_abc');
    expect(secretOfAuthorization('bearer   cfy_abc ')).toBe('cfy_abc');
    expect(() => secretOfAuthorization('Bearer')).toThrow(/Malformed/);
    expect(() => secretOfAuthorization('Bearer a b')).toThrow(/Malformed/);
    expect(() => secretOfAuthorization('cfy_abc')).toThrow(/Malformed/);
  });
});
