import { access } from 'node:fs/promises';
import { join, sep } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

export interface WebOptions {
  /** The built web app (index.html and its assets); the API alone is served when absent. */
  root: string | undefined;
}

/**
 * Serves the built web app; a GET for any other non-API path answers index.html so the client's
 * router can show the page (deep links, reloads). API paths keep their JSON 404.
 */
export const webPlugin = fp<WebOptions>(
  async function web(app: FastifyInstance, options) {
    const root = options.root && (await hasIndex(options.root)) ? options.root : undefined;
    if (root) {
      await app.register(fastifyStatic, {
        root,
        wildcard: false,
        index: 'index.html',
        cacheControl: false,
        setHeaders: (response, path) =>
          response.setHeader('cache-control', cacheControlFor(root, path)),
      });
    }
    app.setNotFoundHandler((request, reply) => {
      const path = request.url.split('?')[0] ?? '/';
      // /badge/{domain} is an image, not a page: a wrong badge address gets the JSON 404 too.
      const isPage = !path.startsWith('/api/') && !path.startsWith('/badge/');
      if (root && request.method === 'GET' && isPage) {
        return reply.header('cache-control', 'no-cache').sendFile('index.html');
      }
      return reply.status(404).send({ message: `No such address: ${request.method} ${path}` });
    });
  },
  { name: 'web' },
);

/**
 * Vite names what it builds into assets/ by content hash, so those never change under their name
 * and are kept a year; everything else (index.html naming the current hashes, the video, icons)
 * is revalidated on each use.
 */
export function cacheControlFor(root: string, path: string): string {
  const assets = join(root, 'assets') + sep;
  return path.startsWith(assets) ? 'public, max-age=31536000, immutable' : 'no-cache';
}

async function hasIndex(root: string): Promise<boolean> {
  try {
    await access(join(root, 'index.html'));
    return true;
  } catch {
    return false;
  }
}
