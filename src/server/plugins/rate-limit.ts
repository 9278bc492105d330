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
/**
 * The plugin keeps a counter store per route; starting a scan has several routes (scans, analyze,
 * raw-scan, live start) that must share one allowance, so every route gets this one store. A
 * route with an allowance of its own (complaints) counts under its own key with `groupId`, and
 * each window remembers its own length, so pruning for one route never resets another's count.
 */
class SharedWindowStore {
  private readonly windows = new Map<
    string,
    { current: number; startMs: number; lengthMs: number }
  >();

  incr(
    key: string,
    callback: (error: Error | null, result?: { current: number; ttl: number }) => void,
    timeWindow: number,
  ): void {
    const now = Date.now();
    if (this.windows.size > 10_000) this.prune(now);
    let window = this.windows.get(key);
    if (!window || window.startMs + timeWindow <= now) {
      window = { current: 0, startMs: now, lengthMs: timeWindow };
      this.windows.set(key, window);
    }
    window.current += 1;
    callback(null, { current: window.current, ttl: window.startMs + timeWindow - now });
  }

  child(): SharedWindowStore {
    return this;
  }

  private prune(now: number): void {
    for (const [key, window] of this.windows) {
      if (window.startMs + window.lengthMs <= now) this.windows.delete(key);
    }
  }
}

export const rateLimitPlugin = fp(
  async function rateLimits(app: FastifyInstance) {
    await app.register(rateLimit, {
      global: false,
      hook: 'preHandler',
      store: SharedWindowStore as never,
      errorResponseBuilder: (_request, context) =>
        new TooManyRequestsError(
          `Too many scans started from your address; try again in ${context.after}.`,
        ),
    });
  },
  { name: 'rate-limit', dependencies: ['errors'] },
);
