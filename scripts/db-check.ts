/**
 * Fails when src/db/schema and the committed migrations disagree: drizzle-kit generates into a
 * scratch copy of the migrations, and any file it writes is a change nobody generated. Also runs
 * `drizzle-kit check`, which catches inconsistent snapshots (e.g. two branches' migrations).
 * Run by `npm run db:check` (part of `npm run check`).
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cp, readdir, readFile, rm } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const migrations = join(root, 'src', 'db', 'migrations');
const drizzleKit = join(root, 'node_modules', '.bin', 'drizzle-kit');

async function listFiles(folder: string): Promise<string[]> {
  return (await readdir(folder, { recursive: true })).map(String).sort();
}

async function main(): Promise<number> {
  await run(drizzleKit, ['check'], { cwd: root });

  // drizzle-kit mangles absolute --out paths, so the scratch copy sits below the project root.
  const scratch = join(
    root,
    'node_modules',
    '.cache',
    'conformly',
    `drift-${randomBytes(4).toString('hex')}`,
  );
  await cp(migrations, scratch, { recursive: true });
  try {
    const before = new Set(await listFiles(scratch));
    await run(
      drizzleKit,
      [
        'generate',
        '--dialect',
        'postgresql',
        '--schema',
        'src/db/schema/index.ts',
        '--out',
        relative(root, scratch),
        '--name',
        'drift',
      ],
      { cwd: root },
    );
    const added = (await listFiles(scratch)).filter((file) => !before.has(file));
    if (added.length === 0) {
      console.log('db:check: schema and migrations agree');
      return 0;
    }
    console.error('db:check: src/db/schema has changes with no migration. Run:');
    console.error('  npm run db:generate -- --name <what_changed>');
    for (const file of added.filter((name) => name.endsWith('.sql'))) {
      console.error(`\n-- would generate ${file}:\n${await readFile(join(scratch, file), 'utf8')}`);
    }
    return 1;
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

process.exitCode = await main();
