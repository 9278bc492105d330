import type { CiRunResponse, CiRunUpload } from '#contract/ci-run.js';
import type { PageScanResult } from '#contract/index.js';
import { toJsonPages } from '#reports/json.js';
import { reportModelOf } from '#reports/model.js';
import { readCiEnvironment, runGit, type Env, type Git } from './ci-env.js';
import { CliError, ExitCode } from './exit-codes.js';

/**
 * `--upload`: sends the run's results (the pages `--format json` writes) with the commit, branch,
 * pull request and build URL to a Conformly server, which files them in the domain's history
 * beside its monitoring audits. The token comes from CONFORMLY_TOKEN (an API token with the
 * `results:upload` scope), the server from CONFORMLY_SERVER or the config file's `server`.
 *
 * Uploading never fails the job: a refused or failed upload is a warning on stderr, unless
 * `--upload-required` asks for a non-zero exit with the server's message.
 */

export interface UploadOptions {
  upload?: boolean;
  uploadRequired?: boolean;
  /** --upload-domain: the monitored domain a local or preview server's pages stand for. */
  uploadDomain?: string;
  /** The config file's `server`. */
  server?: string;
}

export interface UploadContext {
  version: string;
  stderr: NodeJS.WritableStream;
  env?: Env;
  git?: Git;
}

/** How long an upload may take before it counts as failed. */
const uploadTimeoutMs = 60_000;

export const wantsUpload = (options: UploadOptions) =>
  options.upload === true || options.uploadRequired === true;

/** Uploads the results; on failure warns, or throws when the upload is required. */
export async function uploadResults(
  results: readonly PageScanResult[],
  options: UploadOptions,
  context: UploadContext,
): Promise<CiRunResponse | undefined> {
  const env = context.env ?? process.env;
  const fail = (reason: string): undefined => {
    if (options.uploadRequired) {
      throw new CliError(`Upload failed: ${reason}`, ExitCode.failed);
    }
    context.stderr.write(
      `Warning: the results were not uploaded: ${reason} (the job goes on; --upload-required would fail it).\n`,
    );
    return undefined;
  };

  const token = env.CONFORMLY_TOKEN?.trim();
  const server = (env.CONFORMLY_SERVER?.trim() || options.server?.trim() || '').replace(/\/+$/, '');
  if (!server) {
    return fail(
      'no server to upload to: set CONFORMLY_SERVER (e.g. https://conformly.example.com) or "server" in conformly.config.json',
    );
  }
  if (!/^https?:\/\//i.test(server)) return fail(`the server ${server} is not an http(s) address`);
  if (!token) {
    return fail(
      'no token: set CONFORMLY_TOKEN to an API token with the results:upload scope (Settings, API tokens)',
    );
  }
  const domain = options.uploadDomain ?? (env.CONFORMLY_DOMAIN?.trim() || undefined);
  const body: CiRunUpload = {
    ...(domain ? { domain } : {}),
    ci: readCiEnvironment(env, context.git ?? runGit),
    results: toJsonPages(results.map(reportModelOf)),
    tool: `conformly ${context.version}`,
  };

  let response: Response;
  try {
    response = await fetch(`${server}/api/ci-runs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(uploadTimeoutMs),
    });
  } catch (error) {
    const cause = (error as { cause?: { message?: string } }).cause?.message;
    return fail(
      `could not reach ${server}: ${cause ?? (error instanceof Error ? error.message : String(error))}`,
    );
  }
  const text = await response.text();
  let answer: unknown;
  try {
    answer = JSON.parse(text);
  } catch {
    answer = undefined;
  }
  if (response.status !== 201) {
    const message =
      (answer as { message?: unknown } | undefined)?.message ??
      (text.slice(0, 200) || response.statusText);
    return fail(`${server} answered ${response.status}: ${String(message)}`);
  }
  const stored = answer as CiRunResponse;
  context.stderr.write(`Uploaded to ${stored.dashboardUrl}\n${stored.message}\n`);
  return stored;
}
