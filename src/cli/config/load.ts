import { readFile, stat } from 'node:fs/promises';
import { dirname, extname, isAbsolute, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CliError } from '../exit-codes.js';
import { errorMessage } from '../scan-pages.js';
import { ConformlyConfig, describeIssues } from './schema.js';

/** Looked for in this order in each folder, from the working directory up to the root. */
export const configFileNames = [
  'conformly.config.json',
  'conformly.config.mjs',
  'conformly.config.js',
] as const;

export interface LoadedConfig {
  /** Absolute path of the file read. */
  file: string;
  config: ConformlyConfig;
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

/** The nearest config file at or above `from`, as ESLint and Prettier find theirs. */
export async function findConfigFile(
  from: string,
  names: readonly string[] = configFileNames,
): Promise<string | undefined> {
  for (let folder = resolve(from); ; folder = dirname(folder)) {
    for (const name of names) {
      const candidate = join(folder, name);
      if (await isFile(candidate)) return candidate;
    }
    if (dirname(folder) === folder) return undefined;
  }
}

/**
 * A config file's content: JSON for `.json` and extension-less files (`.pa11yci`), else the
 * module's default export (or `module.exports`), awaited when it is a promise.
 */
export async function readConfigFile(file: string): Promise<unknown> {
  const extension = extname(file);
  if (extension === '.js' || extension === '.mjs' || extension === '.cjs') {
    let loaded: { default?: unknown };
    try {
      loaded = (await import(pathToFileURL(file).href)) as { default?: unknown };
    } catch (error) {
      throw new CliError(`Could not load ${file}: ${errorMessage(error)}`);
    }
    return await (loaded.default ?? loaded);
  }
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new CliError(`Could not read ${file}: ${errorMessage(error)}`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new CliError(`${file} is not valid JSON: ${errorMessage(error)}`);
  }
}

/**
 * `--config FILE`, else the nearest `conformly.config.*`, validated; undefined when there is
 * none. Paths in it (baseline, output, outputDir) are made absolute from the file's folder.
 */
export async function loadConformlyConfig(
  explicit: string | undefined,
  cwd: string = process.cwd(),
): Promise<LoadedConfig | undefined> {
  const file = explicit ? resolve(cwd, explicit) : await findConfigFile(cwd);
  if (!file) return undefined;
  if (explicit && !(await isFile(file))) throw new CliError(`Config file ${file} not found.`);
  const parsed = ConformlyConfig.safeParse(await readConfigFile(file));
  if (!parsed.success) throw invalidConfig(file, describeIssues(parsed.error));
  const config = parsed.data;
  const folder = dirname(file);
  const absolute = (path: string | undefined) =>
    path === undefined || isAbsolute(path) ? path : resolve(folder, path);
  return {
    file,
    config: {
      ...config,
      baseline: absolute(config.baseline),
      output: absolute(config.output),
      outputDir: absolute(config.outputDir),
    },
  };
}

export function invalidConfig(file: string, problems: readonly string[]): CliError {
  return new CliError(
    `${file} has ${problems.length} problem${problems.length === 1 ? '' : 's'}:\n` +
      problems.map((problem) => `  ${problem}`).join('\n'),
  );
}
