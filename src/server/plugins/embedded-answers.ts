import type { FastifyInstance, FastifyRequest } from 'fastify';

/** More than this, and the rest of a screen's answers are preloaded instead of written in. */
const maxEmbeddedBytes = 256 * 1024;

/**
 * A screen's first API answers, read in-process with the visitor's own cookie and address as the
 * browser would read them (same routes, same checks, same rate limits), for the page to carry
 * them in its HTML (`api-answers`, read by src/web/lib/embedded-answers.ts). Only JSON answers
 * with status 200 are kept; any other answer is left for the browser to ask for itself, so an
 * expired session or a missing record behaves exactly as without this.
 */
export async function readAnswers(
  app: FastifyInstance,
  request: FastifyRequest,
  paths: readonly string[],
): Promise<{ embedded: Record<string, unknown>; left: string[] }> {
  const responses = await Promise.all(
    paths.map((url) =>
      app.inject({
        method: 'GET',
        url,
        remoteAddress: request.ip,
        headers: {
          accept: 'application/json',
          ...(request.headers.cookie ? { cookie: request.headers.cookie } : {}),
          ...(request.headers['user-agent'] ? { 'user-agent': request.headers['user-agent'] } : {}),
        },
      }),
    ),
  );
  const embedded: Record<string, unknown> = {};
  const left: string[] = [];
  let bytes = 0;
  responses.forEach((response, index) => {
    const path = paths[index]!;
    const json = String(response.headers['content-type'] ?? '').startsWith('application/json');
    if (response.statusCode !== 200 || !json || bytes + response.body.length > maxEmbeddedBytes) {
      left.push(path);
      return;
    }
    try {
      embedded[path] = JSON.parse(response.body);
      bytes += response.body.length;
    } catch {
      left.push(path);
    }
  });
  return { embedded, left };
}

/**
 * The answers as a data block the page's script reads (never runs): `<` and the line separators
 * JSON allows but script text does not are escaped, so no answer can end the element early.
 */
export function answersScript(embedded: Record<string, unknown>): string {
  if (Object.keys(embedded).length === 0) return '';
  const json = JSON.stringify(embedded)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
  return `<script type="application/json" id="api-answers">${json}</script>`;
}
