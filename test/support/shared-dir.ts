import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * The team's shared reference folder (spec, data, ACT corpus): `SHARED_DIR` when set, else a
 * `shared/` folder beside the checkout or beside any folder above it (a CI clone may sit deeper
 * than the working copy), else the workplace's own `/work/shared`. Read at run time, never copied.
 */
export function findSharedDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.SHARED_DIR) return resolve(env.SHARED_DIR);
  for (let dir = repoRoot; ; dir = dirname(dir)) {
    const candidate = join(dirname(dir), 'shared');
    if (existsSync(join(candidate, 'corpus')) || existsSync(join(candidate, 'data'))) {
      return candidate;
    }
    if (dirname(dir) === dir) break;
  }
  return '/work/shared';
}
