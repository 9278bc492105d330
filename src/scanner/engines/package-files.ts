import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const sources = new Map<string, string>();

/** A browser script shipped in an npm package, read from disk once per process. */
export function packageScript(specifier: string): string {
  let source = sources.get(specifier);
  if (source === undefined) {
    source = readFileSync(require.resolve(specifier), 'utf8');
    sources.set(specifier, source);
  }
  return source;
}

/** The installed version of a package (resolved from `from`, default: our own dependencies). */
export function packageVersion(name: string, from?: string): string {
  const resolve = from ? createRequire(require.resolve(from)) : require;
  return (resolve(`${name}/package.json`) as { version: string }).version;
}
