/** Postgres error codes services react to (https://www.postgresql.org/docs/current/errcodes-appendix.html). */
export const pgErrorCodes = {
  uniqueViolation: '23505',
  foreignKeyViolation: '23503',
  checkViolation: '23514',
  notNullViolation: '23502',
} as const;

/**
 * The SQLSTATE of a failed query, whichever driver raised it. Drizzle wraps driver errors in a
 * DrizzleQueryError, so the code is looked for along the `cause` chain.
 */
export function pgErrorCode(error: unknown): string | undefined {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    if (typeof current !== 'object') return undefined;
    const { code, cause } = current as { code?: unknown; cause?: unknown };
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
    current = cause;
  }
  return undefined;
}
