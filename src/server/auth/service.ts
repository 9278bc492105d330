import type { CurrentUser } from '#contract/index.js';
import type { AppDb } from '#db/client.js';
import { confirmAccountEmail } from '#email/messages.js';
import type { Mailer } from '#email/mailer.js';
import { ConflictError, InvalidError, UnauthorizedError } from '../http-errors.js';
import { normalizeTargetUrl } from '#scanner';
import { startScan, type ScanServiceDeps } from '../scans/service.js';
import { beginAttempt, type Attempt, type AuthLimits, type LimitedCaller } from './limits.js';
import { hashSecret, verifySecret } from './passwords.js';
import * as repo from './repo.js';
import { deleteSessionsOf } from './sessions.js';
import { hashToken, newToken } from './tokens.js';

/**
 * Sign-up, log-in and Google sign-in (spec public-area §2, §7, §8); password reset is in
 * password-reset.ts. HTTP lives in routes.ts.
 */

export interface AuthServiceDeps {
  db: AppDb;
  mailer: Mailer;
  /** The landing modal queues a scan of the visitor's site through the scan service. */
  scans: ScanServiceDeps;
  /** Links in e-mails point here (config PUBLIC_URL). */
  publicUrl: string;
  limits: AuthLimits;
}

/** Who is calling, as the log and the limits need it. */
export interface AuthCaller extends LimitedCaller {
  /** The anonymous browser id, so a scan started at sign-up also shows on that browser. */
  clientId: string | undefined;
  /** The session making the call, kept when a password change signs other browsers out. */
  session: { idHash: string; userId: string } | undefined;
}

export const resetLinkMinutes = 30;

export const invalidCredentials = 'Invalid credentials';
export const userExists = 'User already exists';

/**
 * The organisation's plan state a session shows. The billing area owns it; app.ts hands the
 * auth routes its reader (`billingOf`), so auth does not import billing.
 */
export interface SessionBilling {
  subscriptionStatus: string;
  trialStartDate: Date | null;
  trialEndDate: Date | null;
  trialUsed: boolean;
  cardAdded: boolean;
}

/**
 * The signed-in person, with the plan state of the organisation they work in (its billing
 * account: the users row keeps no billing state).
 */
export function toCurrentUser(user: repo.UserRecord, billing: SessionBilling): CurrentUser {
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    plan: user.plan,
    subscriptionStatus: billing.subscriptionStatus,
    emailVerified: user.emailVerified,
    trialStartDate: billing.trialStartDate?.toISOString() ?? null,
    trialEndDate: billing.trialEndDate?.toISOString() ?? null,
    trialUsed: billing.trialUsed,
    cardAdded: billing.cardAdded,
    hasPassword: user.passwordHash !== null,
    googleLinked: user.googleId !== null,
    createdAt: user.createdAt.toISOString(),
  };
}

export async function logEvent(
  deps: Pick<AuthServiceDeps, 'db'>,
  caller: LimitedCaller,
  entry: {
    event: string;
    success: boolean;
    email?: string | null;
    userId?: string | null;
    details?: Record<string, unknown>;
  },
): Promise<void> {
  await repo.insertAuthLog(deps.db, {
    email: entry.email ?? null,
    ip: caller.ip,
    userAgent: caller.userAgent,
    event: entry.event,
    success: entry.success,
    userId: entry.userId ?? null,
    details: entry.details ?? null,
  });
}

/**
 * Marks the caller's browser (its device cookie) as one `user` signed in from, so guesses at the
 * account's password from elsewhere never hold this browser back (limits.ts).
 */
export async function trustDevice(
  deps: Pick<AuthServiceDeps, 'db'>,
  caller: LimitedCaller,
  user: repo.UserRecord,
  deviceToken: string,
): Promise<void> {
  await logEvent(deps, caller, {
    event: repo.deviceTrustedEvent,
    success: true,
    email: user.email,
    userId: user.id,
    details: { device: hashToken(deviceToken) },
  });
}

/** A display name until the person gives one: the mailbox part of the address. */
function nameFrom(email: string): string {
  return email.split('@')[0] ?? email;
}

export function expiresIn(minutes: number): Date {
  return new Date(Date.now() + minutes * 60_000);
}

/** The e-mailed link that sets a password (and so proves the address). */
export function setPasswordLink(deps: Pick<AuthServiceDeps, 'publicUrl'>, token: string): string {
  return `${deps.publicUrl}/app/reset-password/${encodeURIComponent(token)}`;
}

/**
 * An account the landing modal made for an address nobody has proven yet: no password, no
 * Google, never confirmed. Whoever typed the address may not own it, so it never stands in the
 * way of the address's owner: registering, signing up or signing in with Google replaces it.
 */
export function isUnclaimed(user: repo.UserRecord): boolean {
  return !user.emailVerified && user.passwordHash === null && user.googleId === null;
}

/**
 * The account for `email` when none stands in the way, else undefined. An unclaimed one is
 * deleted first (with the scan it queued), and its e-mailed link dies with it.
 */
async function makeRoom(deps: AuthServiceDeps, email: string): Promise<boolean> {
  const existing = await repo.findUserByEmail(deps.db, email);
  if (!existing) return true;
  if (!isUnclaimed(existing)) return false;
  await repo.deleteUser(deps.db, existing.id);
  return true;
}

/** `POST /api/auth/register`: an account with a password; 409 when the address is taken. */
export async function register(
  deps: AuthServiceDeps,
  caller: AuthCaller,
  input: { email: string; password: string },
): Promise<repo.UserRecord> {
  const { email } = input;
  const attempt = await beginAttempt(deps.db, deps.limits, 'register', caller, email, 'register');
  const refuse = async () => {
    await attempt.settle({ success: false, details: { reason: 'email_taken' } });
    return new ConflictError(userExists);
  };
  if (!(await makeRoom(deps, email))) throw await refuse();
  const passwordHash = await hashSecret(input.password);
  let user: repo.UserRecord;
  try {
    user = await repo.insertUser(deps.db, { email, name: nameFrom(email), passwordHash });
  } catch (error) {
    if (repo.isUniqueViolation(error)) throw await refuse();
    throw error;
  }
  await attempt.settle({ success: true, userId: user.id });
  return user;
}

/**
 * `POST /api/auth/signup`, the landing modal: an unclaimed account (no password), a scan of the
 * visitor's site owned by it and by the visitor's browser, and an e-mailed link that confirms the
 * address by setting a password. Nobody is signed in until that link is used: whoever typed the
 * address may not own it. 400 'User already exists' sends the visitor to log in. A URL the
 * scanner refuses creates no account.
 */
export async function signup(
  deps: AuthServiceDeps,
  caller: AuthCaller,
  input: { email: string; url: string; plan: string; name: string },
): Promise<{ scanId: string }> {
  const { email } = input;
  const attempt = await beginAttempt(deps.db, deps.limits, 'signup', caller, email, 'signup');
  const refuse = async (reason: string) => attempt.settle({ success: false, details: { reason } });
  if (!(await makeRoom(deps, email))) {
    await refuse('email_taken');
    throw new InvalidError(userExists);
  }
  const token = newToken();
  let user: repo.UserRecord;
  try {
    user = await repo.insertUser(deps.db, {
      email,
      name: input.name || nameFrom(email),
      passwordResetTokenHash: hashToken(token),
      passwordResetTokenExpiresAt: expiresIn(resetLinkMinutes),
    });
  } catch (error) {
    if (!repo.isUniqueViolation(error)) throw error;
    await refuse('email_taken');
    throw new InvalidError(userExists);
  }
  let scan: { id: string };
  try {
    scan = await startScan(
      deps.scans,
      { clientId: caller.clientId, organisationId: user.id, ip: caller.ip },
      input.url,
    );
  } catch (error) {
    await repo.deleteUser(deps.db, user.id);
    await refuse(error instanceof InvalidError ? 'bad_url' : 'scan_not_queued');
    throw error;
  }
  deps.mailer.send(
    confirmAccountEmail({
      to: email,
      link: setPasswordLink(deps, token),
      linkMinutes: resetLinkMinutes,
      // Only the host the scanner accepted, never the text as typed.
      site: normalizeTargetUrl(input.url).hostname,
    }),
  );
  await attempt.settle({
    success: true,
    userId: user.id,
    details: { plan: input.plan, scanId: scan.id },
  });
  return { scanId: scan.id };
}

/**
 * `POST /api/auth/login`: 401 'Invalid credentials' for a wrong password or unknown address.
 * Unclaimed accounts have no password, so they cannot be signed in to.
 */
export async function login(
  deps: AuthServiceDeps,
  caller: AuthCaller,
  input: { email: string; password: string },
): Promise<repo.UserRecord> {
  const { email } = input;
  const attempt: Attempt = await beginAttempt(
    deps.db,
    deps.limits,
    'login',
    caller,
    email,
    'login',
  );
  const user = await repo.findUserByEmail(deps.db, email);
  // Unknown addresses and password-less accounts still pay for one hash check.
  const ok = await verifySecret(user?.passwordHash, input.password);
  if (!user || !ok) {
    const reason = !user ? 'unknown_email' : user.passwordHash ? 'wrong_password' : 'no_password';
    await attempt.settle({ success: false, userId: user?.id, details: { reason } });
    throw new UnauthorizedError(invalidCredentials);
  }
  await attempt.settle({ success: true, userId: user.id });
  return user;
}

/**
 * Google sign-in, with claims already verified by the OpenID client (google.ts): the account
 * linked to this Google subject, else the account with this verified address (now linked), else a
 * new one. An unverified address never links: whoever controls it at Google would take over.
 */
export async function signInWithGoogle(
  deps: AuthServiceDeps,
  caller: AuthCaller,
  claims: {
    sub: string;
    email: string | undefined;
    emailVerified: boolean;
    name: string | undefined;
  },
): Promise<repo.UserRecord> {
  const email = claims.email?.trim().toLowerCase();
  const fail = async (reason: string, message: string) => {
    await logEvent(deps, caller, {
      event: 'google_login',
      success: false,
      email,
      details: { reason, sub: claims.sub },
    });
    return new UnauthorizedError(`Google sign-in failed: ${message}`);
  };
  let user = await repo.findUserByGoogleId(deps.db, claims.sub);
  let outcome = 'signed_in';
  if (!user) {
    if (!email || !claims.emailVerified) {
      throw await fail('email_not_verified', 'the Google account has no verified e-mail.');
    }
    const existing = await repo.findUserByEmail(deps.db, email);
    if (existing) {
      if (existing.googleId) {
        throw await fail(
          'email_linked_to_other_google_account',
          'this e-mail belongs to an account linked to another Google account.',
        );
      }
      // Google vouches for the address now. A password set before the address was proven may be
      // a stranger's (register asks no proof), so it goes, and so does every session.
      user = await repo.updateUser(deps.db, existing.id, {
        googleId: claims.sub,
        emailVerified: true,
        ...(existing.emailVerified ? {} : { passwordHash: null }),
      });
      await deleteSessionsOf(deps.db, existing.id);
      outcome = 'linked';
    } else {
      user = await repo.insertUser(deps.db, {
        email,
        name: claims.name?.trim() || nameFrom(email),
        googleId: claims.sub,
        emailVerified: true,
      });
      outcome = 'created';
    }
  }
  if (!user) throw await fail('account_vanished', 'the account no longer exists.');
  await logEvent(deps, caller, {
    event: 'google_login',
    success: true,
    email: user.email,
    userId: user.id,
    details: { outcome },
  });
  return user;
}
