import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { TooManyRequestsError } from '../http-errors.js';

export interface ScanRateLimit {
  /** Scans one address may start per window. */
  max: number;
  timeWindowMs: number;
}

export const defaultScanRateLimit: ScanRateLimit = { max: 20, timeWindowMs: 60_000 };

export interface TokenRateLimit {
  /** Requests one API token may make per window, on every route together. */
  max: number;
  timeWindowMs: number;
}

/** Five a second on average: a CI job's uploads and reads, not a loop gone wrong. */
export const defaultTokenRateLimit: TokenRateLimit = { max: 300, timeWindowMs: 60_000 };

/**
 * Per-caller limits, off by default and switched on per route with `config.rateLimit` (scan
 * starts), counted per API token for a token's requests and per IP address otherwise, so a CI
 * job does not use up the allowance of the office it runs beside, nor they its. Counted in memory per server process: a limit of N per server, which is
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

/** The key a route's limit counts under: the API token, else the caller's address. */
function callerKey(request: FastifyRequest): string {
  const token = request.caller?.token;
  return token ? `token:${token.id}` : request.ip;
}

export interface RateLimitOptions {
  /** Every API token's allowance on all routes together; tests tighten it. */
  tokenLimit?: TokenRateLimit;
}

export const rateLimitPlugin = fp<RateLimitOptions>(
  async function rateLimits(app: FastifyInstance, options) {
    await app.register(rateLimit, {
      global: false,
      hook: 'preHandler',
      store: SharedWindowStore as never,
      keyGenerator: callerKey,
      errorResponseBuilder: (request, context) =>
        new TooManyRequestsError(
          request.caller?.token
            ? `Too many scans started with this API token; try again in ${context.after}.`
            : `Too many scans started from your address; try again in ${context.after}.`,
        ),
    });

    // Each token's requests on every route, counted before the route's own limit (if any).
    // @fastify/rate-limit runs one limiter per request, so this one keeps its own windows.
    const tokenLimit = options.tokenLimit ?? defaultTokenRateLimit;
    const tokenWindows = new SharedWindowStore();
    app.addHook('preHandler', async (request, reply) => {
      const token = request.caller?.token;
      if (!token) return;
      const { current, ttl } = await new Promise<{ current: number; ttl: number }>(
        (resolve, reject) =>
          tokenWindows.incr(
            `token:${token.id}`,
            (error, result) => (error || !result ? reject(error) : resolve(result)),
            tokenLimit.timeWindowMs,
          ),
      );
      if (current <= tokenLimit.max) return;
      const seconds = Math.max(1, Math.ceil(ttl / 1000));
      reply.header('retry-after', seconds);
      throw new TooManyRequestsError(
        `Too many requests with this API token (${tokenLimit.max} per ${Math.round(tokenLimit.timeWindowMs / 1000)} seconds); try again in ${seconds} seconds.`,
      );
    });
  },
  { name: 'rate-limit', dependencies: ['errors'] },
);
