import { readFile, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import {
  pathToUri,
  sourceCandidates,
  type PageSource,
  type SarifSourceRoot,
} from '#reports/sarif-locations.js';

export interface SarifSources {
  /** Each page's source file, by the page URL asked for. */
  sources: Map<string, PageSource>;
  /** The file unmapped pages point at (--sarif-artifact), read. */
  artifact?: PageSource;
  /** What the user should know: pages without a file, mapped files that do not exist. */
  warnings: string[];
}

interface ScannedPage {
  url: string;
  finalUrl: string;
}

/**
 * The repository files of the scanned pages under the --sarif-root-url mappings, read from the
 * working directory (the repository root in CI): the first candidate that is a file wins (see
 * `sourceCandidates`); when none is, the first is still written, and named in a warning.
 */
export async function readSarifSources(
  pages: readonly ScannedPage[],
  roots: readonly SarifSourceRoot[],
  artifactPath: string | undefined,
  cwd = process.cwd(),
): Promise<SarifSources> {
  const sources = new Map<string, PageSource>();
  const warnings: string[] = [];
  const unmapped: string[] = [];
  for (const page of pages) {
    const candidates = sourceCandidates([page.finalUrl, page.url], roots);
    if (candidates.length === 0) {
      unmapped.push(page.url);
      continue;
    }
    let found: PageSource | undefined;
    for (const candidate of candidates) {
      const text = await readTextFile(resolve(cwd, candidate));
      if (text !== undefined) {
        found = { uri: pathToUri(candidate), text };
        break;
      }
    }
    if (!found) {
      warnings.push(
        `SARIF: no file for ${page.url} under --sarif-root-url (looked for ${candidates.join(', ')}); its results point at ${candidates[0]}, line 1.`,
      );
      found = { uri: pathToUri(candidates[0] as string) };
    }
    sources.set(page.url, found);
  }
  const artifact = artifactPath
    ? { uri: pathToUri(artifactPath), text: await readTextFile(resolve(cwd, artifactPath)) }
    : undefined;
  if (unmapped.length > 0 && !artifact) {
    warnings.push(
      `SARIF: ${unmapped.length} page${unmapped.length === 1 ? ' has' : 's have'} no file in the repository (${unmapped.join(', ')}); GitHub code scanning shows a result only at a file, so map pages with --sarif-root-url <url>=<folder> or name a file with --sarif-artifact <file>.`,
    );
  }
  return { sources, ...(artifact ? { artifact } : {}), warnings };
}

async function readTextFile(path: string): Promise<string | undefined> {
  try {
    if (!(await stat(path)).isFile()) return undefined;
    return await readFile(path, 'utf8');
  } catch {
    return undefined;
  }
}
