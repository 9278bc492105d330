import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'puppeteer-core';

const require = createRequire(import.meta.url);
/** The installed version of a package (resolved from `from`, default: our own dependencies). */
export function packageVersion(name: string, from?: string): string {
  const resolve = from ? createRequire(require.resolve(from)) : require;
  return (resolve(`${name}/package.json`) as { version: string }).version;
}

/** Where a page records which package scripts it holds; gone with the document on navigation. */
const loadedKey = '__conformlyScripts';

/**
 * Loads a package's browser script into the page once per document: a second call on the same
 * document (an engine's `run` after its `prepare`) finds it there and does nothing. The source is
 * evaluated whole, as a classic script, so its top-level names become the page's globals as they
 * would from a script tag; the line added after it marks the document.
 */
export async function loadPackageScript(page: Page, specifier: string): Promise<void> {
  const loaded = await page.evaluate(
    (key: string, name: string) =>
      (globalThis as unknown as Record<string, Record<string, boolean> | undefined>)[key]?.[
        name
      ] === true,
    loadedKey,
    specifier,
  );
  if (loaded) return;
  await page.evaluate(markedSource(specifier));
}

/** Each package script as the page gets it (the mark added), read from disk once per process. */
const marked = new Map<string, string>();

function markedSource(specifier: string): string {
  let source = marked.get(specifier);
  if (source === undefined) {
    const mark = `globalThis[${JSON.stringify(loadedKey)}] = Object.assign(globalThis[${JSON.stringify(loadedKey)}] || {}, { ${JSON.stringify(specifier)}: true });`;
    // On a line of its own: the package's source may end in a //# sourceMappingURL comment.
    source = `${readFileSync(require.resolve(specifier), 'utf8')}\n;${mark}\n`;
    marked.set(specifier, source);
  }
  return source;
}
