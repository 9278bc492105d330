import { and, eq } from 'drizzle-orm';
import Fastify from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openTestPglite } from '../../../test/support/db.js';
import { DeleteAccountRequest, EmailChangeRequest, ProfileRequest } from '#contract/index.js';
import type { Database } from '#db/client.js';
import {
  authLogs,
  complaints,
  domains,
  issues,
  outboxEmails,
  payments,
  scans,
  sessions,
  users,
} from '#db/schema/index.js';
import { createMailer, type Mailer } from '#email/mailer.js';
import { DemoPaymentProvider } from '../billing/payments.js';
import { hashSecret, verifySecret } from '../auth/passwords.js';
import { findActiveSession, startSession, type ActiveSession } from '../auth/sessions.js';
import {
  ConflictError,
  InvalidError,
  NotFoundError,
  TooManyRequestsError,
} from '../http-errors.js';
import * as service from './service.js';

/** Each settings action without HTTP, and what it leaves in the database. */

let database: Database;
let mailer: Mailer;
let deps: service.AccountServiceDeps;
const password = 'Old-Passw0rd!';
const newPassword = 'New-Passw0rd!';

beforeAll(async () => {
  database = await openTestPglite();
  mailer = createMailer({
    db: database.db,
    smtpUrl: undefined,
    from: 'Conformly <no-reply@localhost>',
    log: Fastify({ logger: false }).log,
  });
  deps = {
    db: database.db,
    mailer,
    publicUrl: 'https://conformly.example',
    payments: new DemoPaymentProvider(),
  };
});
afterAll(async () => {
  await mailer?.close();
  await database?.close();
});

let counter = 0;
interface Signed {
  userId: string;
  email: string;
  /** This browser's session and its cookie value. */
  session: ActiveSession;
  token: string;
  caller: service.AccountCaller;
}

async function account(options: { withPassword?: boolean } = {}): Promise<Signed> {
  counter += 1;
  const email = `owner${counter}@shop${counter}.test`;
  const [row] = await database.db
    .insert(users)
    .values({
      email,
      name: 'Owner',
      passwordHash: options.withPassword === false ? null : await hashSecret(password),
    })
    .returning({ id: users.id });
  const { token, session } = await signIn(row!.id, 'Firefox on Linux');
  return {
    userId: row!.id,
    email,
    session,
    token,
    caller: { session, ip: '203.0.113.7', userAgent: 'Firefox on Linux' },
  };
}

const signIn = (userId: string, userAgent: string) =>
  startSession(database.db, {
    userId,
    ttlMs: 3_600_000,
    ip: '198.51.100.1',
    userAgent,
    replacing: undefined,
  });

async function row(userId: string) {
  const [found] = await database.db.select().from(users).where(eq(users.id, userId));
  return found;
}

beforeEach(async () => {
  await mailer.idle();
});

describe('profile', () => {
  it('stores name and company; a blank company is none', async () => {
    const owner = await account();
    const saved = await service.updateProfile(
      deps,
      owner.userId,
      ProfileRequest.parse({ name: '  Ada Lovelace ', company: ' Analytical Ltd ' }),
    );
    expect(saved).toMatchObject({ name: 'Ada Lovelace', company: 'Analytical Ltd' });
    expect(await row(owner.userId)).toMatchObject({
      name: 'Ada Lovelace',
      company: 'Analytical Ltd',
    });
    await service.updateProfile(
      deps,
      owner.userId,
      ProfileRequest.parse({ name: 'Ada', company: '' }),
    );
    expect((await row(owner.userId))!.company).toBeNull();
    expect(ProfileRequest.safeParse({ name: '   ', company: '' }).success).toBe(false);
  });
});

describe('change e-mail', () => {
  async function linkSentTo(to: string): Promise<string> {
    await mailer.idle();
    const [mail] = await database.db.select().from(outboxEmails).where(eq(outboxEmails.to, to));
    const link = /https:\/\/conformly\.example\/app\/confirm-email\/(\S+)/.exec(mail!.text);
    return decodeURIComponent(link![1]!);
  }

  it('changes the address only when the link sent to the new one is opened, once', async () => {
    const owner = await account();
    const settings = await service.requestEmailChange(
      deps,
      owner.caller,
      EmailChangeRequest.parse({ newEmail: 'New.Address@Example.org', currentPassword: password }),
    );
    expect(settings).toMatchObject({ email: owner.email, pendingEmail: 'new.address@example.org' });
    // Not yet: the account still signs in with its old address.
    expect((await row(owner.userId))!.email).toBe(owner.email);

    const token = await linkSentTo('new.address@example.org');
    expect(await service.confirmEmailChange(deps, token)).toEqual({
      email: 'new.address@example.org',
    });
    expect(await row(owner.userId)).toMatchObject({
      email: 'new.address@example.org',
      emailVerified: true,
      pendingEmail: null,
      pendingEmailTokenHash: null,
    });
    await expect(service.confirmEmailChange(deps, token)).rejects.toThrow(InvalidError);
  });

  it('refuses a wrong current password, and an address another account has', async () => {
    const owner = await account();
    const other = await account();
    await expect(
      service.requestEmailChange(deps, owner.caller, {
        newEmail: 'someone@example.org',
        currentPassword: 'wrong',
      }),
    ).rejects.toThrow(service.wrongCurrentPassword);
    expect((await row(owner.userId))!.pendingEmail).toBeNull();
    await expect(
      service.requestEmailChange(deps, owner.caller, {
        newEmail: other.email,
        currentPassword: password,
      }),
    ).rejects.toThrow(ConflictError);
    await expect(service.confirmEmailChange(deps, 'not-a-token')).rejects.toThrow(InvalidError);
  });
});

describe('change password', () => {
  it('needs the current password, then signs out every other browser and keeps this one', async () => {
    const owner = await account();
    const phone = await signIn(owner.userId, 'Safari on iPhone');
    await expect(
      service.changePassword(deps, owner.caller, {
        currentPassword: 'Wrong-Passw0rd!',
        newPassword,
      }),
    ).rejects.toThrow(service.wrongCurrentPassword);
    expect(await verifySecret((await row(owner.userId))!.passwordHash, password)).toBe(true);
    expect(await findActiveSession(database.db, phone.token)).toBeDefined();

    expect(
      await service.changePassword(deps, owner.caller, { currentPassword: password, newPassword }),
    ).toEqual({ signedOut: 1 });
    expect(await verifySecret((await row(owner.userId))!.passwordHash, newPassword)).toBe(true);
    expect(await findActiveSession(database.db, phone.token)).toBeUndefined();
    expect(await findActiveSession(database.db, owner.token)).toBeDefined();
    const logged = await database.db
      .select()
      .from(authLogs)
      .where(and(eq(authLogs.userId, owner.userId), eq(authLogs.event, 'password_change')));
    expect(logged.map((entry) => entry.success).sort()).toEqual([false, true]);
  });

  it('pauses after 5 wrong current passwords, even the right one', async () => {
    const owner = await account();
    for (let i = 0; i < service.passwordGuessesPerWindow; i++) {
      await expect(
        service.changePassword(deps, owner.caller, {
          currentPassword: `Guess-${i}!a`,
          newPassword,
        }),
      ).rejects.toThrow(service.wrongCurrentPassword);
    }
    await expect(
      service.changePassword(deps, owner.caller, { currentPassword: password, newPassword }),
    ).rejects.toThrow(TooManyRequestsError);
    expect(await verifySecret((await row(owner.userId))!.passwordHash, password)).toBe(true);
  });

  it('tells an account without a password how to get one', async () => {
    const owner = await account({ withPassword: false });
    await expect(
      service.changePassword(deps, owner.caller, { currentPassword: 'x', newPassword }),
    ).rejects.toThrow(service.noPasswordYet);
  });
});

describe('sessions', () => {
  it('lists the browsers with the current one marked, and ends another one', async () => {
    const owner = await account();
    const phone = await signIn(owner.userId, 'Safari on iPhone');
    const listed = await service.listSessions(deps, owner.session);
    expect(listed).toHaveLength(2);
    expect(listed.find((entry) => entry.current)).toMatchObject({ userAgent: 'Firefox on Linux' });
    const other = listed.find((entry) => !entry.current)!;
    expect(other).toMatchObject({ userAgent: 'Safari on iPhone', ip: '198.51.100.1' });
    // The id shown is neither the cookie nor the stored key.
    expect(other.id).not.toBe(phone.session.idHash);

    await service.revokeSession(deps, owner.caller, other.id);
    expect(await findActiveSession(database.db, phone.token)).toBeUndefined();
    expect(await service.listSessions(deps, owner.session)).toHaveLength(1);
    await expect(service.revokeSession(deps, owner.caller, other.id)).rejects.toThrow(
      NotFoundError,
    );
    const current = listed.find((entry) => entry.current)!;
    await expect(service.revokeSession(deps, owner.caller, current.id)).rejects.toThrow(
      InvalidError,
    );
  });

  it("never ends another account's session", async () => {
    const owner = await account();
    const stranger = await account();
    const [theirs] = await service.listSessions(deps, stranger.session);
    await expect(service.revokeSession(deps, owner.caller, theirs!.id)).rejects.toThrow(
      NotFoundError,
    );
    expect(await findActiveSession(database.db, stranger.token)).toBeDefined();
  });
});

describe('notifications and the welcome tour', () => {
  it('stores each preference; every kind is on until turned off', async () => {
    const owner = await account();
    expect((await service.getSettings(deps, owner.userId)).notifications).toEqual({
      scanAlerts: true,
      weeklyDigest: true,
      billing: true,
    });
    await service.updateNotifications(deps, owner.userId, {
      scanAlerts: false,
      weeklyDigest: true,
      billing: false,
    });
    expect((await row(owner.userId))!.notificationPreferences).toEqual({
      scanAlerts: false,
      weeklyDigest: true,
      billing: false,
    });
    await service.turnOffNotification(deps, owner.userId, 'weeklyDigest');
    expect((await service.getSettings(deps, owner.userId)).notifications).toEqual({
      scanAlerts: false,
      weeklyDigest: false,
      billing: false,
    });
  });

  it('keeps the first time the tour was finished or skipped', async () => {
    const owner = await account();
    expect((await service.getSettings(deps, owner.userId)).tourCompleted).toBe(false);
    await service.completeTour(deps, owner.userId);
    const first = (await row(owner.userId))!.tourCompletedAt;
    expect(first).toBeInstanceOf(Date);
    await service.completeTour(deps, owner.userId);
    expect((await row(owner.userId))!.tourCompletedAt).toEqual(first);
    expect((await service.getSettings(deps, owner.userId)).tourCompleted).toBe(true);
  });
});

/** An owner with a monitored domain, a scan with an issue, a complaint and a payment. */
async function ownerWithData() {
  const owner = await account();
  const domain = `site${counter}.test`;
  await database.db.insert(domains).values({
    userId: owner.userId,
    domain,
    status: 'active',
    domainIndex: 1,
    monthlyPrice: 4900,
    verifiedAt: new Date(),
    verificationMethod: 'dns',
  });
  const [scan] = await database.db
    .insert(scans)
    .values({
      userId: owner.userId,
      url: `https://${domain}/`,
      domain,
      status: 'completed',
      accessibilityScore: 71,
      completedAt: new Date(),
    })
    .returning({ id: scans.id });
  await database.db.insert(issues).values({
    scanId: scan!.id,
    issueKey: 'image-alt:img',
    title: 'Images must have alternate text',
    description: 'An image has no text alternative.',
    rule: 'image-alt',
    ruleKey: 'image-alt',
    impact: 'critical',
    kind: 'violation',
    confidence: 'confirmed',
    selector: 'img',
    source: 'axe',
    engines: ['axe'],
    rules: { axe: ['image-alt'] },
  });
  await database.db.insert(complaints).values({
    domain,
    message: 'The checkout cannot be used with a keyboard.',
    submitterEmail: 'visitor@example.org',
  });
  await database.db.insert(payments).values({
    id: `demo_${counter}`,
    provider: 'demo',
    userId: owner.userId,
    purpose: 'subscribe',
    domain,
    amountCents: 4900,
    status: 'succeeded',
  });
  await database.db.insert(authLogs).values({
    email: owner.email,
    userId: owner.userId,
    ip: '203.0.113.9',
    userAgent: 'Firefox',
    event: 'login',
    success: true,
  });
  return { ...owner, domain, scanId: scan!.id };
}

describe('export my data', () => {
  it('holds the profile, domains, scans with their issues, complaints and payments', async () => {
    const owner = await ownerWithData();
    await service.updateProfile(deps, owner.userId, { name: 'Ada', company: 'Shop Ltd' });
    const data = await service.exportData(deps, owner.userId);
    expect(data.profile).toMatchObject({ email: owner.email, name: 'Ada', company: 'Shop Ltd' });
    expect(data.domains).toEqual([
      expect.objectContaining({ domain: owner.domain, status: 'active' }),
    ]);
    expect(data.scans).toEqual([
      expect.objectContaining({
        id: owner.scanId,
        accessibilityScore: 71,
        issues: [
          expect.objectContaining({ rule: 'image-alt', impact: 'critical', selector: 'img' }),
        ],
      }),
    ]);
    expect(data.complaints).toEqual([
      expect.objectContaining({ message: 'The checkout cannot be used with a keyboard.' }),
    ]);
    expect(data.payments).toEqual([
      expect.objectContaining({ amountCents: 4900, purpose: 'subscribe' }),
    ]);
    expect(data.signInLog).toEqual([
      expect.objectContaining({ ip: '203.0.113.9', event: 'login' }),
    ]);
    expect(data.sessions).toHaveLength(1);
    // It is JSON through and through.
    expect(JSON.parse(JSON.stringify(data))).toEqual(data);
  });
});

describe('delete my account', () => {
  it('asks for the typed word', () => {
    expect(DeleteAccountRequest.safeParse({ confirmation: 'delete' }).success).toBe(false);
    expect(DeleteAccountRequest.safeParse({ confirmation: 'DELETE' }).success).toBe(true);
  });

  it('removes the account and its data as the privacy page says, and nobody else’s', async () => {
    const owner = await ownerWithData();
    const bystander = await ownerWithData();
    await mailer.sendOnce({ to: owner.email, subject: 'Hello', text: 'Hi' });

    await service.deleteAccount(deps, owner.caller);

    const db = database.db;
    expect(await row(owner.userId)).toBeUndefined();
    expect(await db.select().from(domains).where(eq(domains.domain, owner.domain))).toEqual([]);
    expect(await db.select().from(scans).where(eq(scans.id, owner.scanId))).toEqual([]);
    expect(await db.select().from(issues).where(eq(issues.scanId, owner.scanId))).toEqual([]);
    expect(await db.select().from(complaints).where(eq(complaints.domain, owner.domain))).toEqual(
      [],
    );
    expect(await db.select().from(payments).where(eq(payments.userId, owner.userId))).toEqual([]);
    expect(await db.select().from(sessions).where(eq(sessions.userId, owner.userId))).toEqual([]);
    expect(await db.select().from(authLogs).where(eq(authLogs.email, owner.email))).toEqual([]);
    expect(await db.select().from(outboxEmails).where(eq(outboxEmails.to, owner.email))).toEqual(
      [],
    );
    expect(await findActiveSession(db, owner.token)).toBeUndefined();

    // The other owner's data is all there.
    expect(await row(bystander.userId)).toBeDefined();
    expect(await db.select().from(scans).where(eq(scans.id, bystander.scanId))).toHaveLength(1);
    expect(
      await db.select().from(complaints).where(eq(complaints.domain, bystander.domain)),
    ).toHaveLength(1);
  });
});
