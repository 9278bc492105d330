#!/usr/bin/env node
// The `conformly` command. Runs the compiled CLI when the package has been built (npm run build),
// otherwise compiles the TypeScript source on the fly with tsx, so `npx conformly` works right
// after `npm install`.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const built = new URL('../dist/cli/main.js', import.meta.url);
let cli;
if (existsSync(fileURLToPath(built))) {
  cli = await import(built.href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  cli = await import(new URL('../src/cli/main.ts', import.meta.url).href);
}
process.exitCode = await cli.run(process.argv);
