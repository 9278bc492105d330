import type { AppDb } from '../../db/client.js';
import { TooManyRequestsError } from '../http-errors.js';
import * as repo from './repo.js';

/**
 * Brute-force limits on log-in, sign-up and password reset, per IP and per e-mail address. They
 * are counted from auth_logs, so every server enforces the same numbers and a restart forgets
 * nothing. Refused attempts are logged under their own event and do not extend the lock.
 */

export interface Limit {
  max: number;
  windowMs: number;
}

export interface AuthLimits {
  /** Failed log-ins. */
  loginPerEmail: Limit;
  loginPerIp: Limit;
  /** Account creations (register and the landing modal), successful or not. */
  registerPerEmail: Limit;
  registerPerIp: Limit;
  /** Reset requests, whether or not the account exists. */
  resetPerEmail: Limit;
  resetPerIp: Limit;
  /** Failed reset codes and links. */
  resetGuessPerEmail: Limit;
  resetGuessPerIp: Limit;
  /** Wrong guesses one reset code survives. */
  codeAttempts: number;
}

const minutes = (n: number) => n * 60_000;

export const defaultAuthLimits: AuthLimits = {
  loginPerEmail: { max: 5, windowMs: minutes(15) },
  loginPerIp: { max: 20, windowMs: minutes(15) },
  registerPerEmail: { max: 5, windowMs: minutes(60) },
  registerPerIp: { max: 10, windowMs: minutes(60) },
  resetPerEmail: { max: 3, windowMs: minutes(60) },
  resetPerIp: { max: 10, windowMs: minutes(60) },
  resetGuessPerEmail: { max: 10, windowMs: minutes(15) },
  resetGuessPerIp: { max: 20, windowMs: minutes(15) },
  codeAttempts: 5,
};

/** The server's words for a 429; the client shows 'Too Many Attempts' for the status. */
export const tooManyAttemptsMessage = 'Too many attempts. Please wait before trying again.';

export type LimitedCall = 'login' | 'register' | 'reset' | 'reset_guess';

const rules: Record<
  LimitedCall,
  { events: string[]; failuresOnly: boolean; email: keyof AuthLimits; ip: keyof AuthLimits }
> = {
  login: {
    events: ['login'],
    failuresOnly: true,
    email: 'loginPerEmail',
    ip: 'loginPerIp',
  },
  register: {
    events: ['register', 'signup'],
    failuresOnly: false,
    email: 'registerPerEmail',
    ip: 'registerPerIp',
  },
  reset: {
    events: ['reset_request'],
    failuresOnly: false,
    email: 'resetPerEmail',
    ip: 'resetPerIp',
  },
  reset_guess: {
    events: ['reset_code_verify', 'reset_code_complete', 'reset_link_complete'],
    failuresOnly: true,
    email: 'resetGuessPerEmail',
    ip: 'resetGuessPerIp',
  },
};

export interface LimitedCaller {
  ip: string;
  userAgent: string | null;
}

/** Throws 429 when the address or the IP has used up its allowance for this call. */
export async function enforceLimit(
  db: AppDb,
  limits: AuthLimits,
  call: LimitedCall,
  caller: LimitedCaller,
  email: string | undefined,
): Promise<void> {
  const rule = rules[call];
  const now = Date.now();
  const over = async (key: 'email' | 'ip'): Promise<boolean> => {
    const limit = limits[rule[key]] as Limit;
    const count = await repo.countAuthLogs(db, {
      events: rule.events,
      failuresOnly: rule.failuresOnly,
      since: new Date(now - limit.windowMs),
      ...(key === 'email' ? { email } : { ip: caller.ip }),
    });
    return count >= limit.max;
  };
  const limitedBy =
    email !== undefined && (await over('email')) ? 'email' : (await over('ip')) ? 'ip' : undefined;
  if (!limitedBy) return;
  await repo.insertAuthLog(db, {
    email: email ?? null,
    ip: caller.ip,
    userAgent: caller.userAgent,
    event: 'rate_limited',
    success: false,
    details: { call, limitedBy },
  });
  throw new TooManyRequestsError(tooManyAttemptsMessage);
}
