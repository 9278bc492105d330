import type {
  AccountSettings,
  EmailChangeRequest,
  NotificationSettings,
  PasswordChangeRequest,
  SessionInfo,
} from '#contract/index.js';
import type { AppDb } from '#db/client.js';
import * as domainStore from '#db/stores/domains.js';
import * as paymentStore from '#db/stores/payments.js';
import * as scanStore from '#db/stores/scans.js';
import { confirmEmailChangeEmail } from '#email/messages.js';
import type { Mailer } from '#email/mailer.js';
import { logEvent } from '../auth/service.js';
import { hashSecret, verifySecret } from '../auth/passwords.js';
import {
  deleteSessionOf,
  deleteSessionsOf,
  listSessionsOf,
  type ActiveSession,
} from '../auth/sessions.js';
import { hashToken, newToken } from '../auth/tokens.js';
import { accountBilling, cancelPlan, hasPlan } from '../billing/lifecycle.js';
import type { PaymentProvider } from '../billing/payments.js';
import { complaintsForExport, deleteComplaintsHeldBy } from '../complaints/service.js';
import {
  ConflictError,
  InvalidError,
  NotFoundError,
  TooManyRequestsError,
} from '../http-errors.js';
import { tooManyAttemptsMessage } from '../auth/limits.js';
import * as repo from './repo.js';

/**
 * Account settings (/app/dashboard/settings): profile, e-mail and password changes, the browsers
 * signed in, notification preferences, the welcome tour, export and deletion. HTTP is in
 * routes.ts; every function takes the signed-in session or account id it acts for.
 */

export interface AccountServiceDeps {
  db: AppDb;
  mailer: Mailer;
  /** Links in e-mails point here (config PUBLIC_URL). */
  publicUrl: string;
  /** Deleting an account stops its provider subscription first. */
  payments: PaymentProvider;
}

/** Who asks, as the sign-in log records it. */
export interface AccountCaller {
  session: ActiveSession;
  ip: string;
  userAgent: string | null;
}

export const emailChangeLinkHours = 24;
/** Wrong current passwords one account may send from settings per window. */
export const passwordGuessesPerWindow = 5;
const passwordGuessWindowMs = 15 * 60_000;
const guessEvents = ['password_change', 'email_change_request'];
export const wrongCurrentPassword = 'Current password is incorrect';
export const noPasswordYet =
  'Your account has no password yet: choose one with "Forgot your password?" on the log-in page.';
export const emailInUse = 'An account with this e-mail already exists.';
export const invalidEmailLink =
  'Invalid or expired confirmation link: ask for the change again in Settings.';

/**
 * The weekly digest went to the user at `at` (the alerts area sends it; the users area alone
 * writes the users table).
 */
export async function recordDigestSent(db: AppDb, userId: string, at: Date): Promise<void> {
  await repo.markDigestSent(db, userId, at);
}

/** Preferences with every kind the account never turned off switched on. */
export function notificationSettingsOf(
  preferences: Partial<NotificationSettings>,
): NotificationSettings {
  return {
    scanAlerts: preferences.scanAlerts ?? true,
    weeklyDigest: preferences.weeklyDigest ?? true,
    billing: preferences.billing ?? true,
  };
}

async function accountOf(db: AppDb, userId: string) {
  const account = await repo.findAccount(db, userId);
  if (!account) throw new NotFoundError('Account not found');
  return account;
}

export async function getSettings(
  deps: Pick<AccountServiceDeps, 'db'>,
  userId: string,
): Promise<AccountSettings> {
  const account = await accountOf(deps.db, userId);
  const pending =
    account.pendingEmail &&
    account.pendingEmailExpiresAt &&
    account.pendingEmailExpiresAt > new Date()
      ? account.pendingEmail
      : null;
  return {
    email: account.email,
    pendingEmail: pending,
    name: account.name,
    company: account.company,
    hasPassword: account.passwordHash !== null,
    notifications: notificationSettingsOf(account.notificationPreferences),
    tourCompleted: account.tourCompletedAt !== null,
  };
}

export async function updateProfile(
  deps: Pick<AccountServiceDeps, 'db'>,
  userId: string,
  input: { name: string; company: string | null },
): Promise<AccountSettings> {
  await repo.updateAccount(deps.db, userId, { name: input.name, company: input.company });
  return getSettings(deps, userId);
}

/** The current password, when the account has one; a wrong one is a 400 (not a sign-out). */
async function checkCurrentPassword(
  deps: Pick<AccountServiceDeps, 'db'>,
  caller: AccountCaller,
  password: string | undefined,
  event: string,
): Promise<void> {
  const account = caller.session.user;
  if (!account.passwordHash) return;
  // A stolen session must not become a way to guess the password: a few tries, then a pause.
  const since = new Date(Date.now() - passwordGuessWindowMs);
  const failures = await repo.countPasswordFailures(deps.db, account.id, guessEvents, since);
  if (failures >= passwordGuessesPerWindow) throw new TooManyRequestsError(tooManyAttemptsMessage);
  if (!password || !(await verifySecret(account.passwordHash, password))) {
    await logEvent(deps, caller, {
      event,
      success: false,
      email: account.email,
      userId: account.id,
      details: { reason: 'wrong_password' },
    });
    throw new InvalidError(wrongCurrentPassword);
  }
}

/**
 * Settings, change e-mail: the new address gets a link; the account keeps its address until the
 * link is opened (confirmEmailChange). Asking again replaces the earlier link.
 */
export async function requestEmailChange(
  deps: AccountServiceDeps,
  caller: AccountCaller,
  input: EmailChangeRequest & { newEmail: string },
): Promise<AccountSettings> {
  const account = caller.session.user;
  await checkCurrentPassword(deps, caller, input.currentPassword, 'email_change_request');
  if (input.newEmail === account.email.toLowerCase()) {
    throw new InvalidError('That is already your e-mail address.');
  }
  if (await repo.emailTaken(deps.db, input.newEmail, account.id))
    throw new ConflictError(emailInUse);
  const token = newToken();
  await repo.updateAccount(deps.db, account.id, {
    pendingEmail: input.newEmail,
    pendingEmailTokenHash: hashToken(token),
    pendingEmailExpiresAt: new Date(Date.now() + emailChangeLinkHours * 3_600_000),
  });
  deps.mailer.send(
    confirmEmailChangeEmail({
      to: input.newEmail,
      name: account.name,
      link: `${deps.publicUrl}/app/confirm-email/${encodeURIComponent(token)}`,
      linkHours: emailChangeLinkHours,
    }),
  );
  await logEvent(deps, caller, {
    event: 'email_change_request',
    success: true,
    email: account.email,
    userId: account.id,
  });
  return getSettings(deps, account.id);
}

/**
 * The link from the new address was opened: the account signs in with it from now on. Works from
 * any browser (the link proves the mailbox); used once.
 */
export async function confirmEmailChange(
  deps: Pick<AccountServiceDeps, 'db'>,
  token: string,
): Promise<{ email: string }> {
  const tokenHash = hashToken(token);
  const account = await repo.findPendingEmailChange(deps.db, tokenHash, new Date());
  if (!account?.pendingEmail) throw new InvalidError(invalidEmailLink);
  if (await repo.emailTaken(deps.db, account.pendingEmail, account.id)) {
    throw new ConflictError(emailInUse);
  }
  let changed;
  try {
    changed = await repo.applyEmailChange(deps.db, account.id, tokenHash);
  } catch (error) {
    // Another account took the address between the check and the change.
    if ((error as { cause?: { code?: string } }).cause?.code === '23505') {
      throw new ConflictError(emailInUse);
    }
    throw error;
  }
  if (!changed) throw new InvalidError(invalidEmailLink);
  return { email: changed.email };
}

/**
 * Settings, change password: the current one first; then every OTHER browser signed in to the
 * account is signed out (whoever knew the old password loses access), this one stays.
 */
export async function changePassword(
  deps: AccountServiceDeps,
  caller: AccountCaller,
  input: PasswordChangeRequest,
): Promise<{ signedOut: number }> {
  const account = caller.session.user;
  if (!account.passwordHash) throw new InvalidError(noPasswordYet);
  await checkCurrentPassword(deps, caller, input.currentPassword, 'password_change');
  await repo.updateAccount(deps.db, account.id, {
    passwordHash: await hashSecret(input.newPassword),
  });
  const before = await listSessionsOf(deps.db, account.id);
  await deleteSessionsOf(deps.db, account.id, caller.session.idHash);
  await logEvent(deps, caller, {
    event: 'password_change',
    success: true,
    email: account.email,
    userId: account.id,
  });
  return { signedOut: before.length - 1 };
}

/** The id a session is shown and revoked by: neither its cookie nor its stored key. */
const publicSessionId = (idHash: string) => hashToken(`session:${idHash}`).slice(0, 24);

export async function listSessions(
  deps: Pick<AccountServiceDeps, 'db'>,
  session: ActiveSession,
): Promise<SessionInfo[]> {
  const rows = await listSessionsOf(deps.db, session.userId);
  return rows.map((row) => ({
    id: publicSessionId(row.idHash),
    userAgent: row.userAgent,
    ip: row.ip,
    createdAt: row.createdAt.toISOString(),
    lastSeenAt: row.lastSeenAt.toISOString(),
    current: row.idHash === session.idHash,
  }));
}

/** Signs one other browser out; this browser signs out with Sign out. */
export async function revokeSession(
  deps: AccountServiceDeps,
  caller: AccountCaller,
  id: string,
): Promise<void> {
  const rows = await listSessionsOf(deps.db, caller.session.userId);
  const target = rows.find((row) => publicSessionId(row.idHash) === id);
  if (!target) throw new NotFoundError('Session not found');
  if (target.idHash === caller.session.idHash) {
    throw new InvalidError('This is the browser you are using: sign out instead.');
  }
  await deleteSessionOf(deps.db, caller.session.userId, target.idHash);
  await logEvent(deps, caller, {
    event: 'session_revoked',
    success: true,
    email: caller.session.user.email,
    userId: caller.session.userId,
  });
}

export async function updateNotifications(
  deps: Pick<AccountServiceDeps, 'db'>,
  userId: string,
  settings: NotificationSettings,
): Promise<AccountSettings> {
  await repo.savePreferences(deps.db, userId, settings);
  return getSettings(deps, userId);
}

/** One kind of e-mail off (an unsubscribe link); the others stay as they are. */
export async function turnOffNotification(
  deps: Pick<AccountServiceDeps, 'db'>,
  userId: string,
  kind: keyof NotificationSettings,
): Promise<void> {
  const account = await accountOf(deps.db, userId);
  await repo.savePreferences(deps.db, userId, {
    ...account.notificationPreferences,
    [kind]: false,
  });
}

/** The welcome tour was finished or skipped: it does not show again for this account. */
export async function completeTour(
  deps: Pick<AccountServiceDeps, 'db'>,
  userId: string,
): Promise<void> {
  await repo.markTourCompleted(deps.db, userId, new Date());
}

const iso = (date: Date | null | undefined) => date?.toISOString() ?? null;

/**
 * Settings, export my data: everything stored about the account, as one JSON document. Raw
 * engine output of each scan is left out (it describes the scanned site, not the person, and
 * runs to megabytes); each scan's report offers it.
 */
export async function exportData(deps: Pick<AccountServiceDeps, 'db'>, userId: string) {
  const account = await accountOf(deps.db, userId);
  // The plan state of the account's personal organisation (its billing account).
  const billing = await accountBilling(deps.db, userId);
  const [sessions, signIns, domains, scans, complaints, payments] = await Promise.all([
    listSessionsOf(deps.db, userId),
    repo.listAuthLogs(deps.db, userId, account.email),
    domainStore.listAccountDomainRows(deps.db, userId),
    scanStore.listScansForExport(deps.db, userId),
    complaintsForExport(deps, userId),
    paymentStore.listPaymentsOf(deps.db, userId),
  ]);
  const issues = await scanStore.listIssuesForExport(
    deps.db,
    scans.map((scan) => scan.id),
  );
  const issuesByScan = new Map<string | null, typeof issues>();
  for (const issue of issues) {
    issuesByScan.set(issue.scanId, [...(issuesByScan.get(issue.scanId) ?? []), issue]);
  }
  return {
    exportedAt: new Date().toISOString(),
    profile: {
      id: account.id,
      email: account.email,
      pendingEmail: account.pendingEmail,
      name: account.name,
      company: account.company,
      emailVerified: account.emailVerified,
      googleLinked: account.googleId !== null,
      hasPassword: account.passwordHash !== null,
      plan: account.plan,
      subscriptionStatus: billing.subscriptionStatus,
      trialStartDate: iso(billing.trialStartDate),
      trialEndDate: iso(billing.trialEndDate),
      cardAdded: billing.cardAdded,
      notifications: notificationSettingsOf(account.notificationPreferences),
      tourCompletedAt: iso(account.tourCompletedAt),
      createdAt: iso(account.createdAt),
    },
    sessions: sessions.map((row) => ({
      userAgent: row.userAgent,
      ip: row.ip,
      createdAt: iso(row.createdAt),
      lastSeenAt: iso(row.lastSeenAt),
    })),
    signInLog: signIns.map((row) => ({ ...row, createdAt: iso(row.createdAt) })),
    domains: domains.map((row) => ({
      domain: row.domain,
      status: row.status,
      monthlyPriceCents: row.monthlyPrice,
      trialEndsAt: iso(row.trialEndsAt),
      currentPeriodEnd: iso(row.currentPeriodEnd),
      gracePeriodEndsAt: iso(row.gracePeriodEndsAt),
      archivedAt: iso(row.archivedAt),
      verifiedAt: iso(row.verifiedAt),
      verificationMethod: row.verificationMethod,
      badgeSettings: row.badgeSettings,
      lastScanAt: iso(row.lastScanAt),
      createdAt: iso(row.createdAt),
    })),
    scans: scans.map((scan) => ({
      ...scan,
      createdAt: iso(scan.createdAt),
      completedAt: iso(scan.completedAt),
      issues: (issuesByScan.get(scan.id) ?? []).map(({ scanId: _scanId, ...issue }) => issue),
    })),
    complaints,
    payments: payments.map((row) => ({
      id: row.id,
      provider: row.provider,
      purpose: row.purpose,
      domain: row.domain,
      amountCents: row.amountCents,
      currency: row.currency,
      status: row.status,
      createdAt: iso(row.createdAt),
      consumedAt: iso(row.consumedAt),
    })),
  };
}
export type AccountExport = Awaited<ReturnType<typeof exportData>>;

/**
 * Settings, delete my account, as the privacy page promises: the provider subscription is
 * stopped and every monitored domain goes (monitoring stops; status pages and badges, which
 * answer only for monitored domains, are gone), then the account with its scans, issues,
 * screenshots, audits, domains, payments, sessions, sign-in log, the complaints it answered and
 * the e-mails sent to it. Kept: domain_history rows without the account (so a site's free month
 * is not taken twice) and anonymous scans that were never the account's.
 */
export async function deleteAccount(
  deps: AccountServiceDeps,
  caller: AccountCaller,
): Promise<void> {
  const account = caller.session.user;
  const now = new Date();
  if (await hasPlan(deps.db, account.id)) {
    try {
      await cancelPlan(deps.db, deps.payments, account.id, now, {
        organisationId: account.id,
        userId: account.id,
        email: account.email,
      });
    } catch (error) {
      // Nothing running to cancel (a plan cancelled before): the domains go with the account.
      if (!(error instanceof ConflictError)) throw error;
    }
  }
  const addresses = [account.email, account.pendingEmail].filter((address): address is string =>
    Boolean(address),
  );
  await deps.db.transaction(async (tx) => {
    await deleteComplaintsHeldBy({ db: tx }, account.id);
    await repo.deleteAccountRows(tx, account.id, addresses);
  });
}
