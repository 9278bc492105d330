import { passwordResetEmail } from '#email/messages.js';
import { InvalidError } from '../http-errors.js';
import { beginAttempt, type Attempt } from './limits.js';
import { hashSecret, verifySecret } from './passwords.js';
import * as repo from './repo.js';
import {
  expiresIn,
  resetLinkMinutes,
  setPasswordLink,
  type AuthCaller,
  type AuthServiceDeps,
} from './service.js';
import { deleteSessionsOf } from './sessions.js';
import { hashToken, newResetCode, newToken } from './tokens.js';

/** Password reset by e-mailed code or link (spec public-area §2 reset screens, §7, §8). */

export const resetCodeMinutes = 15;
export { resetLinkMinutes };

export const invalidCode = 'Invalid or expired code';
export const invalidLink = `Invalid or expired reset link: links are valid for ${resetLinkMinutes} minutes.`;

/**
 * `POST /api/auth/reset-password-request`: e-mails a 6-digit code and a link. The answer, and the
 * work done before it (hashing a code), are the same whether or not the account exists; the
 * e-mail itself goes out after the answer.
 *
 * An account has one live code at a time: while the last e-mailed code can still be used
 * (unused, within its 15 minutes, guesses left), a request (anyone's: the address is all it
 * takes) is answered the same and changes and sends nothing. So a stranger can neither void the
 * code the owner is typing nor use up the owner's requests: whenever the owner is sent nothing,
 * the newest e-mail in their inbox still works. An inbox gets a reset e-mail at most every 15
 * minutes unless the owner uses the code (or guesses kill it; those are limited per address).
 */
export async function requestPasswordReset(
  deps: AuthServiceDeps,
  caller: AuthCaller,
  email: string,
): Promise<void> {
  const attempt = await beginAttempt(deps.db, deps.limits, 'reset', caller, email, 'reset_request');
  const user = await repo.findUserByEmail(deps.db, email);
  const code = newResetCode();
  const token = newToken();
  const codeHash = await hashSecret(code);
  const issued =
    user !== undefined &&
    (await repo.issueResetSecrets(
      deps.db,
      user.id,
      {
        codeHash,
        codeExpiresAt: expiresIn(resetCodeMinutes),
        tokenHash: hashToken(token),
        tokenExpiresAt: expiresIn(resetLinkMinutes),
      },
      new Date(),
      deps.limits.codeAttempts,
    ));
  if (user && issued) {
    deps.mailer.send(
      passwordResetEmail({
        to: user.email,
        code,
        link: setPasswordLink(deps, token),
        codeMinutes: resetCodeMinutes,
        linkMinutes: resetLinkMinutes,
      }),
    );
  }
  await attempt.settle({
    success: true,
    userId: user?.id,
    details: { accountExists: user !== undefined, sent: issued },
  });
}

/**
 * The account whose live reset code `code` is. Each guess first takes one of the code's
 * `codeAttempts` in a single statement (so concurrent guesses cannot share one), then is
 * checked; anything else answers 400 'Invalid or expired code'. The attempt is left settled as a
 * failure, or handed back (with the account) to be settled as a success.
 */
async function checkResetCode(
  deps: AuthServiceDeps,
  caller: AuthCaller,
  event: string,
  email: string | undefined,
  code: string,
): Promise<{ user: repo.UserRecord; attempt: Attempt }> {
  const attempt = await beginAttempt(deps.db, deps.limits, 'reset_guess', caller, email, event);
  const user = email ? await repo.findUserByEmail(deps.db, email) : undefined;
  const live = user
    ? await repo.takeResetCodeAttempt(deps.db, user.id, new Date(), deps.limits.codeAttempts)
    : undefined;
  const ok = await verifySecret(live?.passwordResetCodeHash, code);
  if (!live || !ok) {
    const reason = !email
      ? 'no_email'
      : !user
        ? 'unknown_email'
        : !live
          ? 'no_live_code'
          : 'wrong_code';
    await attempt.settle({ success: false, userId: user?.id, details: { reason } });
    throw new InvalidError(invalidCode);
  }
  return { user: live, attempt };
}

/** `POST /api/auth/verify-reset-code`: checks the code without using it up. */
export async function verifyResetCode(
  deps: AuthServiceDeps,
  caller: AuthCaller,
  email: string | undefined,
  code: string,
): Promise<void> {
  const { user, attempt } = await checkResetCode(deps, caller, 'reset_code_verify', email, code);
  // The right code is not a wrong guess: the attempt it took is handed back.
  await repo.returnResetCodeAttempt(deps.db, user.id);
  await attempt.settle({ success: true, email: user.email, userId: user.id });
}

/** `POST /api/auth/reset-password-complete`: the code once more, then the new password. */
export async function completeResetWithCode(
  deps: AuthServiceDeps,
  caller: AuthCaller,
  input: { email: string | undefined; code: string; newPassword: string },
): Promise<repo.UserRecord> {
  const event = 'reset_code_complete';
  const { user, attempt } = await checkResetCode(deps, caller, event, input.email, input.code);
  if (!(await repo.consumeResetCode(deps.db, user.id, user.passwordResetCodeHash!))) {
    await attempt.settle({
      success: false,
      email: user.email,
      userId: user.id,
      details: { reason: 'code_already_used' },
    });
    throw new InvalidError(invalidCode);
  }
  await setNewPassword(deps, caller, user, input.newPassword);
  await attempt.settle({ success: true, email: user.email, userId: user.id });
  return user;
}

/**
 * `POST /api/auth/reset-password`: the e-mailed link's token, valid 30 minutes, once. The link
 * the landing modal e-mails is one of these: using it confirms the unclaimed account.
 */
export async function completeResetWithToken(
  deps: AuthServiceDeps,
  caller: AuthCaller,
  input: { token: string; newPassword: string },
): Promise<repo.UserRecord> {
  const event = 'reset_link_complete';
  const attempt = await beginAttempt(deps.db, deps.limits, 'reset_guess', caller, undefined, event);
  const tokenHash = hashToken(input.token);
  const user = await repo.findUserByResetToken(deps.db, tokenHash, new Date());
  if (!user || !(await repo.consumeResetToken(deps.db, user.id, tokenHash))) {
    await attempt.settle({
      success: false,
      userId: user?.id,
      email: user?.email,
      details: { reason: user ? 'token_already_used' : 'unknown_or_expired_token' },
    });
    throw new InvalidError(invalidLink);
  }
  await setNewPassword(deps, caller, user, input.newPassword);
  await attempt.settle({ success: true, email: user.email, userId: user.id });
  return user;
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
  await deleteSessionsOf(deps.db, user.id, keep);
}
