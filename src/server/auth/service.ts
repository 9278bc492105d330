import type { CurrentUser } from '../../contract/index.js';
import type { AppDb } from '../../db/client.js';
import { passwordResetEmail, setPasswordEmail } from '../../email/messages.js';
import type { Mailer } from '../../email/mailer.js';
import { InvalidError, ConflictError, UnauthorizedError } from '../http-errors.js';
import { startScan, type ScanServiceDeps } from '../scans/service.js';
import { enforceLimit, type AuthLimits, type LimitedCaller } from './limits.js';
import { hashSecret, verifySecret } from './passwords.js';
import * as repo from './repo.js';
import { hashToken, newResetCode, newToken } from './tokens.js';

/** Sign-up, log-in and password reset (spec public-area §2, §7, §8). HTTP lives in routes.ts. */

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

export const resetCodeMinutes = 15;
export const resetLinkMinutes = 30;

export const invalidCredentials = 'Invalid credentials';
export const userExists = 'User already exists';
export const invalidCode = 'Invalid or expired code';
export const invalidLink = `Invalid or expired reset link: links are valid for ${resetLinkMinutes} minutes.`;

export function toCurrentUser(user: repo.UserRecord): CurrentUser {
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    plan: user.plan,
    subscriptionStatus: user.subscriptionStatus,
    emailVerified: user.emailVerified,
    trialStartDate: user.trialStartDate?.toISOString() ?? null,
    trialEndDate: user.trialEndDate?.toISOString() ?? null,
    trialUsed: user.trialUsed,
    cardAdded: user.cardAdded,
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

/** A display name until the person gives one: the mailbox part of the address. */
function nameFrom(email: string): string {
  return email.split('@')[0] ?? email;
}

function expiresIn(minutes: number): Date {
  return new Date(Date.now() + minutes * 60_000);
}

function link(deps: AuthServiceDeps, token: string): string {
  return `${deps.publicUrl}/app/reset-password/${encodeURIComponent(token)}`;
}

/** `POST /api/auth/register`: an account with a password; 409 when the address is taken. */
export async function register(
  deps: AuthServiceDeps,
  caller: AuthCaller,
  input: { email: string; password: string },
): Promise<repo.UserRecord> {
  const { email } = input;
  await enforceLimit(deps.db, deps.limits, 'register', caller, email);
  const refuse = async () => {
    await logEvent(deps, caller, {
      event: 'register',
      success: false,
      email,
      details: { reason: 'email_taken' },
    });
    return new ConflictError(userExists);
  };
  if (await repo.findUserByEmail(deps.db, email)) throw await refuse();
  const passwordHash = await hashSecret(input.password);
  let user: repo.UserRecord;
  try {
    user = await repo.insertUser(deps.db, { email, name: nameFrom(email), passwordHash });
  } catch (error) {
    if (repo.isUniqueViolation(error)) throw await refuse();
    throw error;
  }
  await logEvent(deps, caller, { event: 'register', success: true, email, userId: user.id });
  return user;
}

/**
 * `POST /api/auth/signup`, the landing modal: the account (no password yet), a scan of the
 * visitor's site owned by it, and an e-mailed link to choose a password. 400 'User already
 * exists' sends the visitor to log in. A URL the scanner refuses creates no account.
 */
export async function signup(
  deps: AuthServiceDeps,
  caller: AuthCaller,
  input: { email: string; url: string; plan: string; name: string },
): Promise<{ user: repo.UserRecord; scanId: string }> {
  const { email } = input;
  await enforceLimit(deps.db, deps.limits, 'register', caller, email);
  const refuse = async (reason: string) =>
    logEvent(deps, caller, { event: 'signup', success: false, email, details: { reason } });
  if (await repo.findUserByEmail(deps.db, email)) {
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
  let scanId: string;
  try {
    ({ id: scanId } = await startScan(
      deps.scans,
      { clientId: caller.clientId, userId: user.id, ip: caller.ip },
      input.url,
    ));
  } catch (error) {
    await repo.deleteUser(deps.db, user.id);
    await refuse(error instanceof InvalidError ? 'bad_url' : 'scan_not_queued');
    throw error;
  }
  deps.mailer.send(
    setPasswordEmail({
      to: email,
      link: link(deps, token),
      linkMinutes: resetLinkMinutes,
      scannedUrl: input.url,
    }),
  );
  await logEvent(deps, caller, {
    event: 'signup',
    success: true,
    email,
    userId: user.id,
    details: { plan: input.plan, scanId },
  });
  return { user, scanId };
}

/** `POST /api/auth/login`: 401 'Invalid credentials' for a wrong password or unknown address. */
export async function login(
  deps: AuthServiceDeps,
  caller: AuthCaller,
  input: { email: string; password: string },
): Promise<repo.UserRecord> {
  const { email } = input;
  await enforceLimit(deps.db, deps.limits, 'login', caller, email);
  const user = await repo.findUserByEmail(deps.db, email);
  // Unknown addresses and password-less accounts still pay for one hash check.
  const ok = await verifySecret(user?.passwordHash, input.password);
  if (!user || !ok) {
    const reason = !user ? 'unknown_email' : user.passwordHash ? 'wrong_password' : 'no_password';
    await logEvent(deps, caller, {
      event: 'login',
      success: false,
      email,
      userId: user?.id,
      details: { reason },
    });
    throw new UnauthorizedError(invalidCredentials);
  }
  await logEvent(deps, caller, { event: 'login', success: true, email, userId: user.id });
  return user;
}

/**
 * `POST /api/auth/reset-password-request`: e-mails a 6-digit code and a link. The answer, and the
 * work done before it (hashing a code), are the same whether or not the account exists; the
 * e-mail itself goes out after the answer.
 */
export async function requestPasswordReset(
  deps: AuthServiceDeps,
  caller: AuthCaller,
  email: string,
): Promise<void> {
  await enforceLimit(deps.db, deps.limits, 'reset', caller, email);
  const user = await repo.findUserByEmail(deps.db, email);
  const code = newResetCode();
  const token = newToken();
  const codeHash = await hashSecret(code);
  if (user) {
    await repo.updateUser(deps.db, user.id, {
      passwordResetCodeHash: codeHash,
      passwordResetCodeExpiresAt: expiresIn(resetCodeMinutes),
      passwordResetCodeUsed: false,
      passwordResetCodeAttempts: 0,
      passwordResetTokenHash: hashToken(token),
      passwordResetTokenExpiresAt: expiresIn(resetLinkMinutes),
    });
    deps.mailer.send(
      passwordResetEmail({
        to: user.email,
        code,
        link: link(deps, token),
        codeMinutes: resetCodeMinutes,
        linkMinutes: resetLinkMinutes,
      }),
    );
  }
  await logEvent(deps, caller, {
    event: 'reset_request',
    success: true,
    email,
    userId: user?.id,
    details: { accountExists: user !== undefined },
  });
}

/**
 * The account whose live reset code `code` is; counts wrong guesses (the code dies after
 * `codeAttempts` of them) and answers 400 'Invalid or expired code' otherwise.
 */
async function checkResetCode(
  deps: AuthServiceDeps,
  caller: AuthCaller,
  event: string,
  email: string | undefined,
  code: string,
): Promise<repo.UserRecord> {
  await enforceLimit(deps.db, deps.limits, 'reset_guess', caller, email);
  const user = email ? await repo.findUserByEmail(deps.db, email) : undefined;
  const live =
    user?.passwordResetCodeHash &&
    !user.passwordResetCodeUsed &&
    user.passwordResetCodeExpiresAt &&
    user.passwordResetCodeExpiresAt > new Date() &&
    user.passwordResetCodeAttempts < deps.limits.codeAttempts
      ? user
      : undefined;
  const ok = await verifySecret(live?.passwordResetCodeHash, code);
  if (!live || !ok) {
    if (live) await repo.countResetCodeAttempt(deps.db, live.id);
    const reason = !email
      ? 'no_email'
      : !user
        ? 'unknown_email'
        : !live
          ? 'no_live_code'
          : 'wrong_code';
    await logEvent(deps, caller, {
      event,
      success: false,
      email,
      userId: user?.id,
      details: { reason },
    });
    throw new InvalidError(invalidCode);
  }
  return live;
}

/** `POST /api/auth/verify-reset-code`: checks the code without using it up. */
export async function verifyResetCode(
  deps: AuthServiceDeps,
  caller: AuthCaller,
  email: string | undefined,
  code: string,
): Promise<void> {
  const user = await checkResetCode(deps, caller, 'reset_code_verify', email, code);
  await logEvent(deps, caller, {
    event: 'reset_code_verify',
    success: true,
    email: user.email,
    userId: user.id,
  });
}

/** `POST /api/auth/reset-password-complete`: the code once more, then the new password. */
export async function completeResetWithCode(
  deps: AuthServiceDeps,
  caller: AuthCaller,
  input: { email: string | undefined; code: string; newPassword: string },
): Promise<void> {
  const event = 'reset_code_complete';
  const user = await checkResetCode(deps, caller, event, input.email, input.code);
  if (!(await repo.consumeResetCode(deps.db, user.id, user.passwordResetCodeHash!))) {
    await logEvent(deps, caller, {
      event,
      success: false,
      email: user.email,
      userId: user.id,
      details: { reason: 'code_already_used' },
    });
    throw new InvalidError(invalidCode);
  }
  await setNewPassword(deps, caller, user, input.newPassword);
  await logEvent(deps, caller, { event, success: true, email: user.email, userId: user.id });
}

/** `POST /api/auth/reset-password`: the e-mailed link's token, valid 30 minutes, once. */
export async function completeResetWithToken(
  deps: AuthServiceDeps,
  caller: AuthCaller,
  input: { token: string; newPassword: string },
): Promise<void> {
  const event = 'reset_link_complete';
  await enforceLimit(deps.db, deps.limits, 'reset_guess', caller, undefined);
  const tokenHash = hashToken(input.token);
  const user = await repo.findUserByResetToken(deps.db, tokenHash, new Date());
  if (!user || !(await repo.consumeResetToken(deps.db, user.id, tokenHash))) {
    await logEvent(deps, caller, {
      event,
      success: false,
      userId: user?.id,
      email: user?.email,
      details: { reason: user ? 'token_already_used' : 'unknown_or_expired_token' },
    });
    throw new InvalidError(invalidLink);
  }
  await setNewPassword(deps, caller, user, input.newPassword);
  await logEvent(deps, caller, { event, success: true, email: user.email, userId: user.id });
}

/**
 * Stores the new password and retires every reset secret. Other browsers signed in to the account
 * are signed out (whoever knew the old password loses access); the one asking stays signed in.
 * Reading the e-mail proved the address, so it counts as verified.
 */
async function setNewPassword(
  deps: AuthServiceDeps,
  caller: AuthCaller,
  user: repo.UserRecord,
  newPassword: string,
): Promise<void> {
  await repo.updateUser(deps.db, user.id, {
    passwordHash: await hashSecret(newPassword),
    emailVerified: true,
    passwordResetCodeHash: null,
    passwordResetCodeExpiresAt: null,
    passwordResetCodeUsed: true,
    passwordResetTokenHash: null,
    passwordResetTokenExpiresAt: null,
  });
  const keep = caller.session?.userId === user.id ? caller.session.idHash : undefined;
  await repo.deleteSessionsOf(deps.db, user.id, keep);
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
      user = await repo.updateUser(deps.db, existing.id, {
        googleId: claims.sub,
        emailVerified: true,
      });
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
