import { statSync } from 'node:fs';
import { isAbsolute, relative, resolve } from 'node:path';
import { InvalidArgumentError } from 'commander';
// The plain lists, not the zod schemas: the CLI starts Chromium before it loads zod.
import { engineIds, impacts } from '#contract/engine-ids.js';
import type { ConformanceLevel, EngineId, Impact } from '#contract/index.js';
import type { SarifSourceRoot } from '#reports/sarif-locations.js';
import type { UrlSafetyOptions } from '#scanner';

export const formats = ['pretty', 'json', 'sarif', 'junit', 'csv', 'markdown', 'html'] as const;
export type Format = (typeof formats)[number];

/** Options shared by `scan` and `crawl`, as commander hands them over after parsing. */
export interface CommonOptions {
  /** Default `pretty`; unset here until the config file had its say. */
  format?: Format;
  output?: string;
  failOn?: Impact;
  engines?: EngineId[];
  /** --level: the WCAG level to test, AA or AAA. */
  level?: ConformanceLevel;
  concurrency?: number;
  timeout?: number;
  waitFor?: string;
  allowPrivate?: boolean;
  /** --allow-origin, repeatable: private origins allowed one by one. */
  allowOrigin?: string[];
  includeReview?: boolean;
  includeRaw?: boolean;
  /** --config: the config file, instead of looking for conformly.config.* upwards. */
  config?: string;
  /** --output-dir: the HTML report, one file per page plus index.html. */
  outputDir?: string;
  /** --baseline: known issues; only new ones fail. */
  baseline?: string;
  /** --update-baseline: record today's issues in the baseline file, replacing it. */
  updateBaseline?: boolean;
  /** --sarif-root-url, repeatable: the repository folder each site's pages come from. */
  sarifRootUrl?: SarifSourceRoot[];
  /** --sarif-artifact: the repository file SARIF results of unmapped pages point at. */
  sarifArtifact?: string;
  /** --upload: send the results to a Conformly server (CONFORMLY_SERVER, CONFORMLY_TOKEN). */
  upload?: boolean;
  /** --upload-required: a failed upload fails the run. */
  uploadRequired?: boolean;
  /** --upload-domain: the monitored domain a local or preview server's pages stand for. */
  uploadDomain?: string;
  /** The config file's `server`: where --upload sends the results. */
  server?: string;
}

export { impacts };

/** "axe,ibm" -> ['axe', 'ibm']; unknown names are bad input. */
export function parseEngines(value: string): EngineId[] {
  const names = value
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter(Boolean);
  if (names.length === 0) throw new InvalidArgumentError(`Choose from ${engineIds.join(', ')}.`);
  const unknown = names.filter((name) => !(engineIds as readonly string[]).includes(name));
  if (unknown.length > 0) {
    throw new InvalidArgumentError(
      `Unknown engine ${unknown.join(', ')}; choose from ${engineIds.join(', ')}.`,
    );
  }
  return [...new Set(names)] as EngineId[];
}

/** A whole number of at least `min`, written plainly ("10", not "1e1" or "10abc"). */
export function positiveInteger(min = 1): (value: string) => number {
  return (value) => {
    if (!/^\d+$/.test(value.trim()) || Number(value) < min) {
      throw new InvalidArgumentError(`Expected a whole number of at least ${min}.`);
    }
    return Number(value);
  };
}

/**
 * One --allow-origin value, added to those before it: an http(s) origin such as
 * http://localhost:3000. A path would suggest a narrower rule than the one applied, so it is refused.
 */
export function collectOrigin(value: string, previous: string[] = []): string[] {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    throw new InvalidArgumentError('Expected an origin such as http://localhost:3000.');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new InvalidArgumentError('Only http and https origins can be allowed.');
  }
  if (url.pathname !== '/' || url.search || url.hash || url.username || url.password) {
    throw new InvalidArgumentError(
      `Expected an origin without path, query or credentials, such as ${url.origin}.`,
    );
  }
  return [...previous, url.origin];
}

/** What the scans of this run may reach: --allow-private opens everything, --allow-origin one site. */
export function targetRules(options: CommonOptions): UrlSafetyOptions {
  return {
    allowPrivateNetwork: options.allowPrivate === true,
    allowedPrivateOrigins: options.allowOrigin ?? [],
  };
}

/**
 * One --sarif-root-url value, `<url>=<folder>`, added to those before it: pages under the URL are
 * files under the folder, a path from the repository root (the working directory), which must
 * exist. GitHub code scanning places a result only at a file of the repository.
 */
export function collectSarifRoot(
  value: string,
  previous: SarifSourceRoot[] = [],
): SarifSourceRoot[] {
  const at = value.indexOf('=');
  const example = 'such as http://localhost:3000/=public';
  if (at < 0) throw new InvalidArgumentError(`Expected <url>=<folder>, ${example}.`);
  let url: URL;
  try {
    url = new URL(value.slice(0, at).trim());
  } catch {
    throw new InvalidArgumentError(`Expected an http(s) URL before "=", ${example}.`);
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.search || url.hash) {
    throw new InvalidArgumentError(
      `Expected an http(s) URL without query or fragment, ${example}.`,
    );
  }
  const dir = repositoryPath(value.slice(at + 1).trim() || '.', 'folder');
  return [...previous, { url: url.href, dir }];
}

/** --sarif-artifact: a file of the repository (a path from the working directory) that exists. */
export function sarifArtifactPath(value: string): string {
  return repositoryPath(value.trim(), 'file');
}

/** A path inside the working directory, written relative to it with forward slashes. */
function repositoryPath(path: string, kind: 'file' | 'folder'): string {
  const full = resolve(path);
  const inside = relative(process.cwd(), full);
  if (inside.startsWith('..') || isAbsolute(inside)) {
    throw new InvalidArgumentError(
      `${path} is outside the working directory; run conformly from the repository root and give a path inside it.`,
    );
  }
  const stats = statSync(full, { throwIfNoEntry: false });
  const isKind = kind === 'file' ? stats?.isFile() : stats?.isDirectory();
  if (!isKind) throw new InvalidArgumentError(`No ${kind} ${path} in ${process.cwd()}.`);
  return inside.split(/[\\/]/).join('/') || '.';
}
