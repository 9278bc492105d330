import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import type { ToolCommand } from './tools.js';

export interface CommandRun {
  ms: number;
  exitCode: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command to completion and times it from spawn to exit, as a user at a shell would see. */
export function runCommand(
  command: Pick<ToolCommand, 'file' | 'args' | 'cwd' | 'env'>,
  onSpawn?: (pid: number) => void,
): Promise<CommandRun> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(command.file, command.args, {
      cwd: command.cwd,
      env: command.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
    child.once('error', reject);
    if (child.pid !== undefined) onSpawn?.(child.pid);
    child.once('close', (exitCode) =>
      resolve({
        ms: Math.round(performance.now() - started),
        exitCode,
        stdout: Buffer.concat(stdout).toString('utf8'),
        stderr: Buffer.concat(stderr).toString('utf8'),
      }),
    );
  });
}

/** Runs a tool and checks it really scanned: an expected exit code and a readable result. */
export async function runTool(
  command: ToolCommand,
): Promise<{ ms: number; findings: number; stdout: string }> {
  const run = await runCommand(command);
  if (run.exitCode === null || !command.okExitCodes.includes(run.exitCode)) {
    throw new Error(
      `${command.name} exited with ${run.exitCode}:\n${run.stderr.slice(-2000)}\n${run.stdout.slice(-1000)}`,
    );
  }
  let findings: number;
  try {
    findings = command.findings(run.stdout, command.cwd);
  } catch (error) {
    throw new Error(
      `${command.name} output could not be read (${error instanceof Error ? error.message : String(error)}):\n${run.stdout.slice(0, 1000)}\n${run.stderr.slice(-1000)}`,
      { cause: error },
    );
  }
  return { ms: run.ms, findings, stdout: run.stdout };
}
