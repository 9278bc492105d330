import { sql } from 'drizzle-orm';
import type { AppDb } from '#db/client.js';
import { TooManyRequestsError } from '../http-errors.js';
import * as repo from './repo.js';

/**
 * Brute-force limits on log-in, sign-up and password reset, per IP and per e-mail address. They
 * are counted from auth_logs, so every server enforces the same numbers and a restart forgets
 * nothing. Refused attempts are logged under their own event and do not extend the lock.
 *
 * Counting is atomic (docs/decisions/0004-account-limits.md): under a transaction-scoped advisory
 * lock on each key the attempt is checked and written down as a failure *before* the password or
 * code is verified; the caller then settles it. A burst of concurrent guesses therefore queues on
 * the lock and the (max+1)-th sees the max rows before it, wherever it came from.
 */

export interface Limit {
  max: number;
  windowMs: number;
}

/**
 * Per-account log-in back-off: after `after` failures within `windowMs`, each further try from a
 * browser the account has not signed in from waits `baseMs`, doubling per failure up to `maxMs`,
 * counted from the last failure. A browser that signed in to the account before is never held
 * back by it, so guessing cannot lock the owner out.
 */
export interface Backoff {
  after: number;
  windowMs: number;
  baseMs: number;
  maxMs: number;
}

export interface AuthLimits {
  /** Failed log-ins against one account, from browsers it never signed in from. */
  loginBackoff: Backoff;
  loginPerIp: Limit;
  /** Landing-modal sign-ups (each sends an e-mail) per address, successful or not. */
  registerPerEmail: Limit;
  /** Account creations (register and the landing modal) per IP, successful or not. */
  registerPerIp: Limit;
  /**
   * Reset requests per IP, whether or not the account exists. Per account there is no count a
   * stranger could use up: a new code is made only once the last one is used or dead
   * (password-reset.ts), and every request is answered the same.
   */
  resetPerIp: Limit;
  /** Failed reset codes and links. */
  resetGuessPerEmail: Limit;
  resetGuessPerIp: Limit;
  /** Wrong guesses one reset code survives. */
  codeAttempts: number;
}

const minutes = (n: number) => n * 60_000;

export const defaultAuthLimits: AuthLimits = {
  loginBackoff: { after: 5, windowMs: minutes(15), baseMs: 15_000, maxMs: minutes(15) },
  loginPerIp: { max: 20, windowMs: minutes(15) },
  registerPerEmail: { max: 5, windowMs: minutes(60) },
  registerPerIp: { max: 10, windowMs: minutes(60) },
  resetPerIp: { max: 10, windowMs: minutes(60) },
  resetGuessPerEmail: { max: 10, windowMs: minutes(15) },
  resetGuessPerIp: { max: 20, windowMs: minutes(15) },
  codeAttempts: 5,
};

/** The server's words for a 429; the client shows 'Too Many Attempts' for the status. */
export const tooManyAttemptsMessage = 'Too many attempts. Please wait before trying again.';

const guessEvents = ['reset_code_verify', 'reset_code_complete', 'reset_link_complete'];

export type LimitedCall = 'login' | 'register' | 'signup' | 'reset' | 'reset_guess';

/** One allowance: which limit, and which log rows use it up. */
interface Counted {
  limit: keyof AuthLimits;
  events: string[];
  /** Only failures (log-in, guesses) or every attempt (sign-ups, reset requests). */
  failuresOnly: boolean;
}

/**
 * Per call, the allowance of the address and of the IP. Register and reset requests have none per
 * address: an allowance someone else could use up would let them keep the owner out (a reset
 * request sends at most one live code per account instead, password-reset.ts).
 */
const rules: Record<LimitedCall, { email?: Counted; ip: Counted }> = {
  login: { ip: { limit: 'loginPerIp', events: ['login'], failuresOnly: true } },
  register: {
    ip: { limit: 'registerPerIp', events: ['register', 'signup'], failuresOnly: false },
  },
  signup: {
    email: { limit: 'registerPerEmail', events: ['signup'], failuresOnly: false },
    ip: { limit: 'registerPerIp', events: ['register', 'signup'], failuresOnly: false },
  },
  reset: { ip: { limit: 'resetPerIp', events: ['reset_request'], failuresOnly: false } },
  reset_guess: {
    email: { limit: 'resetGuessPerEmail', events: guessEvents, failuresOnly: true },
    ip: { limit: 'resetGuessPerIp', events: guessEvents, failuresOnly: true },
  },
};

export interface LimitedCaller {
  ip: string;
  userAgent: string | null;
  /** Hash of the browser's device cookie, set once it has signed in to an account. */
  deviceHash?: string | undefined;
}

/** An attempt already written down as a failure; settle it once the outcome is known. */
export interface Attempt {
  settle(outcome: {
    event?: string;
    success: boolean;
    email?: string | null;
    userId?: string | null;
    details?: Record<string, unknown>;
  }): Promise<void>;
}

/** Serialises every check on the same key (one address or one IP for one call) across servers. */
async function lockKeys(tx: AppDb, keys: string[]): Promise<void> {
  // One order for every caller, so two attempts never wait on each other's second key.
  for (const key of [...keys].sort()) {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`);
  }
}

/**
 * Throws 429 when the address or the IP has used up its allowance for this call; otherwise
 * records the attempt (as a failure of `event`) and answers the handle that settles it.
 */
export async function beginAttempt(
  db: AppDb,
  limits: AuthLimits,
  call: LimitedCall,
  caller: LimitedCaller,
  email: string | undefined,
  event: string,
): Promise<Attempt> {
  const rule = rules[call];
  const now = new Date();
  const outcome = await db.transaction(async (tx) => {
    const scoped = tx as unknown as AppDb;
    await lockKeys(scoped, [
      `auth:${call}:ip:${caller.ip}`,
      ...(email === undefined ? [] : [`auth:${call}:email:${email}`]),
    ]);
    const over = async (key: 'email' | 'ip'): Promise<boolean> => {
      const counted = rule[key];
      if (!counted) return false;
      const limit = limits[counted.limit] as Limit;
      const count = await repo.countAuthLogs(scoped, {
        events: counted.events,
        failuresOnly: counted.failuresOnly,
        since: new Date(now.getTime() - limit.windowMs),
        ...(key === 'email' ? { email } : { ip: caller.ip }),
      });
      return count >= limit.max;
    };
    let limitedBy: string | undefined =
      email !== undefined && (await over('email'))
        ? 'email'
        : (await over('ip'))
          ? 'ip'
          : undefined;
    if (!limitedBy && call === 'login' && email !== undefined) {
      if (await backingOff(scoped, limits.loginBackoff, email, caller.deviceHash, now)) {
        limitedBy = 'account_backoff';
      }
    }
    if (limitedBy) {
      await repo.insertAuthLog(scoped, {
        email: email ?? null,
        ip: caller.ip,
        userAgent: caller.userAgent,
        event: 'rate_limited',
        success: false,
        details: { call, limitedBy },
      });
      return { refused: true as const };
    }
    // Written down under the lock, as a failure until settled, so the next check counts it.
    const id = await repo.insertAuthLog(scoped, {
      email: email ?? null,
      ip: caller.ip,
      userAgent: caller.userAgent,
      event,
      success: false,
      details: { reason: 'unsettled' },
    });
    return { refused: false as const, id };
  });
  if (outcome.refused) throw new TooManyRequestsError(tooManyAttemptsMessage);
  const { id } = outcome;
  return {
    async settle(outcome) {
      await repo.updateAuthLog(db, id, {
        event: outcome.event ?? event,
        success: outcome.success,
        ...(outcome.email !== undefined ? { email: outcome.email } : {}),
        userId: outcome.userId ?? null,
        details: outcome.details ?? null,
      });
    },
  };
}

/**
 * Whether a log-in to `email` must wait: enough recent failures and the last one too recent,
 * unless this browser has signed in to the account before.
 */
async function backingOff(
  db: AppDb,
  backoff: Backoff,
  email: string,
  deviceHash: string | undefined,
  now: Date,
): Promise<boolean> {
  const failures = await repo.recentFailures(db, {
    event: 'login',
    email,
    since: new Date(now.getTime() - backoff.windowMs),
  });
  if (failures.count < backoff.after || !failures.last) return false;
  const waitMs = Math.min(backoff.maxMs, backoff.baseMs * 2 ** (failures.count - backoff.after));
  if (now.getTime() >= failures.last.getTime() + waitMs) return false;
  if (deviceHash && (await repo.isKnownDevice(db, email, deviceHash))) return false;
  return true;
}
