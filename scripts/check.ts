/**
 * The quality gate (`npm run check`): ESLint, the two type checks, Prettier and the migrations'
 * drift check. Each is a single process that keeps one core busy, so they run side by side, and
 * each one's output is printed whole when it ends, with how long it took. Fails when any fails.
 */
import { spawn } from 'node:child_process';

const parts = ['lint', 'typecheck', 'format:check', 'db:check'];

interface Outcome {
  part: string;
  code: number | null;
  seconds: number;
}

function runPart(part: string): Promise<Outcome> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn('npm', ['run', '--silent', part], { stdio: ['ignore', 'pipe', 'pipe'] });
    const output: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => output.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => output.push(chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      const seconds = (performance.now() - started) / 1000;
      const text = Buffer.concat(output).toString('utf8').trimEnd();
      console.log(`check: ${part} ${code === 0 ? 'passed' : 'FAILED'} in ${seconds.toFixed(0)} s`);
      if (text) console.log(text);
      resolve({ part, code, seconds });
    });
  });
}

const outcomes = await Promise.all(parts.map(runPart));
const failed = outcomes.filter((outcome) => outcome.code !== 0).map((outcome) => outcome.part);
if (failed.length > 0) {
  console.error(`check: failed: ${failed.join(', ')}`);
  process.exitCode = 1;
}
