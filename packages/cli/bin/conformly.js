#!/usr/bin/env node
// The `conformly` command of the npm package: runs the bundled CLI in dist/ (built before packing
// by scripts/build-cli-package.ts). In the repository, before that build, it runs the
// repository's own command, which compiles the TypeScript source on the fly.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const built = new URL('../dist/cli/main.js', import.meta.url);
if (existsSync(fileURLToPath(built))) {
  const cli = await import(built.href);
  process.exitCode = await cli.run(process.argv);
} else {
  await import(new URL('../../../bin/conformly.js', import.meta.url).href);
}
