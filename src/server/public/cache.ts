import { createHash, randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { PublicVersions } from './versions.js';

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

/** A rendered answer, ready to send as is. */
export interface RenderedAnswer {
  contentType: string;
  body: string;
}

/**
 * The rendered answers of this process, newest use last (a Map keeps insertion order, so the
 * first key is the least recently used). Keys carry the domain's public version, so an entry is
 * never stale: once the version moves nobody asks for the old key and it ages out.
 */
export class AnswerCache {
  readonly #entries = new Map<string, RenderedAnswer>();
  constructor(readonly maxEntries = 2000) {}

  get(key: string): RenderedAnswer | undefined {
    const entry = this.#entries.get(key);
    if (entry) {
      this.#entries.delete(key);
      this.#entries.set(key, entry);
    }
    return entry;
  }

  set(key: string, answer: RenderedAnswer): void {
    this.#entries.delete(key);
    this.#entries.set(key, answer);
    if (this.#entries.size > this.maxEntries) {
      this.#entries.delete(this.#entries.keys().next().value!);
    }
  }

  get size(): number {
    return this.#entries.size;
  }
}

/**
 * Names this process's renderings in every ETag: a restart with other code must not confirm an
 * answer the previous code rendered. Several servers behind one address each have their own, so
 * a revalidation reaching another server costs a full answer, never a wrong 304.
 */
const processTag = randomBytes(6).toString('base64url');

/** A short digest of an answer's shape for its ETag; the few shapes in use are hashed once. */
const shapeTags = new Map<string, string>();
const shapeTagLimit = 1000;

function shapeTagOf(shape: string): string {
  let tag = shapeTags.get(shape);
  if (tag === undefined) {
    tag = createHash('sha1').update(shape).digest('base64url').slice(0, 10);
    if (shapeTags.size >= shapeTagLimit) shapeTags.clear();
    shapeTags.set(shape, tag);
  }
  return tag;
}

export interface VersionedAnswer {
  versions: PublicVersions;
  cache: AnswerCache;
  /** Already normalized. */
  domain: string;
  /** What identifies the answer apart from the domain: the route and its options, canonical. */
  shape: string;
  /** Builds the answer from the database; throws (e.g. NotFoundError) when there is none. */
  render: () => Promise<RenderedAnswer>;
}

/** Where a versioned answer lives: its domain, its shape and the caches that hold it. */
export type HeldAnswer = Omit<VersionedAnswer, 'render'>;

/** The ETag and cache key of an answer under a version of its domain. */
function versionedKeys(answer: HeldAnswer, version: number) {
  return {
    etag: `"${version}-${shapeTagOf(answer.shape)}-${processTag}"`,
    key: `${answer.shape}\n${answer.domain}\n${version}`,
  };
}

/**
 * Answers a public read keyed by the domain's public version (kept by database triggers, see
 * versions.ts): the ETag is the version plus the answer's shape, so a revalidation costs at most
 * one primary-key read and a 304, and a repeated read the same plus an in-process cache hit. The
 * version is read before rendering: an answer rendered from data newer than its version is
 * replaced as soon as the version moves, while the reverse order could label old data with a new
 * version.
 */
export async function sendVersioned(
  request: FastifyRequest,
  reply: FastifyReply,
  answer: VersionedAnswer,
) {
  const version = await answer.versions.get(answer.domain);
  // Nothing was ever stored about the domain: render answers its 404.
  if (version === undefined) return send(reply, await answer.render());

  const { etag, key } = versionedKeys(answer, version);
  reply.header('etag', etag).header('cache-control', publicCacheControl);
  // The version moves with everything the answer shows (being published included), so a caller
  // holding this ETag holds the current answer: no need to render or even look in the cache.
  if (matches(request.headers['if-none-match'], etag)) return reply.status(304).send();

  let rendered = answer.cache.get(key);
  if (!rendered) {
    try {
      rendered = await answer.render();
    } catch (error) {
      // A refusal (404) is not cacheable under this version's ETag.
      reply.removeHeader('etag').removeHeader('cache-control');
      throw error;
    }
    answer.cache.set(key, rendered);
  }
  return send(reply, rendered);
}

/**
 * Sends what this process already holds for the answer under its domain's current version: a 304
 * to a caller holding it, or the cached rendering. False when it holds nothing (the caller then
 * goes the whole way, sendVersioned). Lets a hot public read skip validation and parsing.
 */
export async function sendHeld(
  request: FastifyRequest,
  reply: FastifyReply,
  answer: HeldAnswer,
): Promise<boolean> {
  const version = await answer.versions.get(answer.domain);
  if (version === undefined) return false;
  const { etag, key } = versionedKeys(answer, version);
  if (matches(request.headers['if-none-match'], etag)) {
    reply.header('etag', etag).header('cache-control', publicCacheControl).status(304).send();
    return true;
  }
  const rendered = answer.cache.get(key);
  if (!rendered) return false;
  send(reply.header('etag', etag).header('cache-control', publicCacheControl), rendered);
  return true;
}

function send(reply: FastifyReply, rendered: RenderedAnswer) {
  return reply.header('content-type', rendered.contentType).send(rendered.body);
}
