import { access, readFile } from 'node:fs/promises';
import { join, sep } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { answersScript, readAnswers } from './embedded-answers.js';
import { answerPreloadLink, readManifest, screenPreloads } from './route-preloads.js';
import { sessionCookieName } from './session.js';

export interface WebOptions {
  /** The built web app (index.html and its assets); the API alone is served when absent. */
  root: string | undefined;
}

/**
 * Serves the built web app; a GET for any other non-API path answers index.html so the client's
 * router can show the page (deep links, reloads). API paths keep their JSON 404. For the heavy
 * screens, that index.html also names the screen's chunks (route-preloads.ts), so a phone fetches
 * them beside the entry script instead of after it, and carries the screen's first API answers
 * (embedded-answers.ts), so it renders once with its data instead of after a chain of answers.
 */
export const webPlugin = fp<WebOptions>(
  async function web(app: FastifyInstance, options) {
    const root = options.root && (await hasIndex(options.root)) ? options.root : undefined;
    // A build does not change under the server that serves it: its manifest and index.html are
    // read once, not on every page a screen's preloads are written into.
    const manifest = root ? await readManifest(root) : undefined;
    const indexHtml = root && manifest ? await readFile(join(root, 'index.html'), 'utf8') : '';
    if (root) {
      await app.register(fastifyStatic, {
        root,
        wildcard: false,
        // '/' goes to the page handler below like every client route (its preloads included).
        index: false,
        cacheControl: false,
        setHeaders: (response, path) =>
          response.setHeader('cache-control', cacheControlFor(root, path)),
      });
    }
    app.setNotFoundHandler(async (request, reply) => {
      const path = request.url.split('?')[0] ?? '/';
      // /badge/{domain} is an image, not a page: a wrong badge address gets the JSON 404 too.
      const isPage = !path.startsWith('/api/') && !path.startsWith('/badge/');
      if (root && request.method === 'GET' && isPage) {
        reply.header('cache-control', 'no-cache');
        const screen = manifest
          ? screenPreloads(manifest, path, {
              signedIn: Boolean(request.cookies[sessionCookieName]),
            })
          : undefined;
        if (!screen) return reply.sendFile('index.html');
        const { embedded, left } = await readAnswers(app, request, screen.answers);
        const followUps = screen.followUps(embedded);
        if (followUps.length > 0)
          Object.assign(embedded, (await readAnswers(app, request, followUps)).embedded);
        const linked = screen.linkable ? left.map(answerPreloadLink) : [];
        const head = [...screen.moduleLinks, ...linked].join('\n    ');
        // A page carrying a visitor's own answers is theirs alone: no shared cache keeps it.
        if (Object.keys(embedded).length > 0) reply.header('cache-control', 'private, no-cache');
        return reply
          .type('text/html; charset=utf-8')
          .send(
            indexHtml
              .replace('</head>', `    ${head}\n  </head>`)
              .replace('</body>', `  ${answersScript(embedded)}\n  </body>`),
          );
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
