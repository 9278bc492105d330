import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * Public pages are read far more than they change, and by anyone: shared caches may keep an
 * answer for a minute and serve it stale for five more while they revalidate, and a browser that
 * already has the current answer gets a 304 without a body.
 */
export const publicCacheControl = 'public, max-age=60, stale-while-revalidate=300';

export function etagOf(body: unknown): string {
  return `"${createHash('sha256').update(JSON.stringify(body)).digest('base64url').slice(0, 27)}"`;
}

function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === '*') return true;
  return ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

/** Sends `body` with its ETag, or a 304 when the caller already holds it. */
export function sendCached<T>(request: FastifyRequest, reply: FastifyReply, body: T) {
  const etag = etagOf(body);
  reply.header('etag', etag).header('cache-control', publicCacheControl);
  if (matches(request.headers['if-none-match'], etag)) return reply.status(304).send();
  return reply.send(body);
}
