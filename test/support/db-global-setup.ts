import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PGlite } from '@electric-sql/pglite';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '#db/client.js';
import { migrationsFolder } from '#db/migrate.js';
import { createQueue } from '#jobs/boss.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const cacheDir = join(root, 'node_modules', '.cache', 'conformly');

/**
 * A fresh PGlite takes seconds to initialise, a copy of a dumped one about a second. So the run
 * builds one migrated database, dumps it, and each test file starts its own copy from the dump
 * (test/support/db.ts), with the migrations applied and pg-boss installed. The dump is cached on
 * disk under a key of the migrations and the PGlite and pg-boss versions, so only a change to one
 * of them pays the full start again.
 */
export default async function setup(project: TestProject): Promise<void> {
  const key = await templateKey();
  const path = join(cacheDir, `pglite-template-${key}.tar`);
  if (!(await exists(path))) {
    const database = await openDatabase({ dataDir: 'memory://', databaseUrl: undefined });
    try {
      // pg-boss installs its own schema on first start (seconds on PGlite); the template has it.
      const boss = await createQueue(database);
      await boss.stop({ graceful: false, wait: true });
      const client = (database.db as unknown as { $client: PGlite }).$client;
      const dump = await client.dumpDataDir('none');
      await mkdir(cacheDir, { recursive: true });
      // Write then rename, so a run killed half-way never leaves a truncated template behind.
      const partial = `${path}.${process.pid}.partial`;
      await writeFile(partial, Buffer.from(await dump.arrayBuffer()));
      await rename(partial, path);
    } finally {
      await database.close();
    }
  }
  await forgetStaleTemplates(path);
  project.provide('pgliteTemplatePath', path);
}

/** A template unused this long belongs to no checkout still being tested. */
const staleTemplateMs = 24 * 3_600_000;

/**
 * Templates of other schemas are 40 MB each. They are dropped only once stale rather than at
 * once: several checkouts (git worktrees) may share node_modules, each with its own migrations
 * and so its own template in use. Using a template marks it fresh.
 */
async function forgetStaleTemplates(current: string): Promise<void> {
  const now = new Date();
  await utimes(current, now, now);
  for (const name of await readdir(cacheDir)) {
    const file = join(cacheDir, name);
    if (!name.startsWith('pglite-template-') || file === current) continue;
    const { mtimeMs } = await stat(file).catch(() => ({ mtimeMs: now.getTime() }));
    if (now.getTime() - mtimeMs > staleTemplateMs) await rm(file, { force: true });
  }
}

async function templateKey(): Promise<string> {
  const hash = createHash('sha256');
  for (const name of ['@electric-sql/pglite', 'pg-boss']) {
    const manifest = JSON.parse(
      await readFile(join(root, 'node_modules', name, 'package.json'), 'utf8'),
    ) as { version: string };
    hash.update(`${name}@${manifest.version}`);
  }
  for (const name of (await readdir(migrationsFolder, { recursive: true })).sort()) {
    const file = join(migrationsFolder, name);
    if ((await stat(file)).isFile()) hash.update(name).update(await readFile(file));
  }
  return hash.digest('hex').slice(0, 16);
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** A dumped PGlite data directory with every migration applied. */
    pgliteTemplatePath: string;
  }
}
