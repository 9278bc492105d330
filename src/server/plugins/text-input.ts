import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { InvalidError } from '../http-errors.js';

/**
 * Refuses, with one 400 for every route, text that no column can store and no e-mail should
 * carry: NUL characters (Postgres text rejects them) and lone UTF-16 surrogates (not Unicode, so
 * not encodable as UTF-8). Body, query string and path parameters are all checked, keys included,
 * before any route's own validation runs.
 */

const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Why `text` cannot be stored, or undefined when it can. */
export function unstorableText(text: string): string | undefined {
  if (text.includes('\u0000')) return 'must not contain NUL characters';
  if (loneSurrogate.test(text)) return 'must not contain unpaired surrogate characters';
  return undefined;
}

/** The first unstorable string in a parsed value, with its path; iterative, so depth is no risk. */
export function findUnstorableText(value: unknown): { path: string; problem: string } | undefined {
  const pending: { value: unknown; path: string }[] = [{ value, path: '' }];
  while (pending.length > 0) {
    const { value: current, path } = pending.pop()!;
    if (typeof current === 'string') {
      const problem = unstorableText(current);
      if (problem) return { path, problem };
    } else if (current && typeof current === 'object' && !Buffer.isBuffer(current)) {
      for (const [key, child] of Object.entries(current)) {
        const childPath = path ? `${path}.${key}` : key;
        const problem = unstorableText(key);
        if (problem) return { path: childPath, problem: `field names ${problem}` };
        pending.push({ value: child, path: childPath });
      }
    }
  }
  return undefined;
}

function check(request: FastifyRequest): void {
  for (const [part, value] of [
    ['body', request.body],
    ['query', request.query],
    ['params', request.params],
  ] as const) {
    const found = findUnstorableText(value);
    if (found) {
      throw new InvalidError(`${found.path || part}: ${found.problem}`);
    }
  }
}

export const textInputPlugin = fp(
  async function textInput(app: FastifyInstance) {
    app.addHook('preValidation', async (request) => check(request));
  },
  { name: 'text-input', dependencies: ['errors'] },
);
