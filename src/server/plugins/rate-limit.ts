import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { TooManyRequestsError } from '../http-errors.js';

export interface ScanRateLimit {
  /** Scans one address may start per window. */
  max: number;
  timeWindowMs: number;
}

export const defaultScanRateLimit: ScanRateLimit = { max: 20, timeWindowMs: 60_000 };

/**
 * Per-IP limits, off by default and switched on per route with `config.rateLimit` (scan starts:
 * `scanStartLimit(app)`). Counted in memory per server process: a limit of N per server, which is
 * the intent (protecting each server's share of the browser pool), without a shared store.
 * Counting happens after validation and CSRF, so refused calls do not use up the allowance.
 */
export const rateLimitPlugin = fp(
  async function rateLimits(app: FastifyInstance) {
    await app.register(rateLimit, {
      global: false,
      hook: 'preHandler',
      errorResponseBuilder: (_request, context) =>
        new TooManyRequestsError(
          `Too many scans started from your address; try again in ${context.after}.`,
        ),
    });
  },
  { name: 'rate-limit', dependencies: ['errors'] },
);
