import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { repoDir } from './tools.js';

/**
 * The product's source at `ref` in `workDir` (git archive, no checkout), with this checkout's
 * bench/scan beside it and the installed node_modules, so the library worker can scan with the
 * older scanner in the same run as the current one: a before/after pair measured under the same
 * load. Returns the folder to run the worker from (LibraryRunOptions.sourceDir).
 */
export function sourceAt(ref: string, workDir: string): string {
  const tree = join(workDir, `source-${ref.replace(/[^\w.-]/g, '_')}`);
  mkdirSync(tree, { recursive: true });
  execFileSync(
    'sh',
    ['-c', `git archive ${ref} src package.json tsconfig.json | tar -x -C ${tree}`],
    {
      cwd: repoDir,
    },
  );
  cpSync(join(repoDir, 'bench/scan'), join(tree, 'bench/scan'), { recursive: true });
  symlinkSync(join(repoDir, 'node_modules'), join(tree, 'node_modules'));
  return tree;
}
