import { execFileSync } from 'node:child_process';
import type { CiRunMetadata } from '#contract/ci-run.js';

/**
 * Where a run comes from, read from the CI's environment for `--upload`: the commit, branch,
 * pull request and build URL, as GitHub Actions and GitLab CI publish them; elsewhere (another
 * CI, a laptop) from git itself. Anything missing stays null: the upload still goes through.
 */

export type Env = Readonly<Record<string, string | undefined>>;

/** Runs git with `args` in the working directory; undefined when git or the repository is absent. */
export type Git = (args: string[]) => string | undefined;

export const runGit: Git = (args) => {
  try {
    const out = execFileSync('git', args, {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: 5_000,
    }).trim();
    return out === '' ? undefined : out;
  } catch {
    return undefined;
  }
};

const value = (env: Env, name: string) => {
  const text = env[name]?.trim();
  return text ? text : null;
};

const number = (text: string | null | undefined) =>
  text && /^\d+$/.test(text) && Number(text) > 0 ? Number(text) : null;

const hash = (text: string | null | undefined) =>
  text && /^[0-9a-f]{7,64}$/i.test(text) ? text.toLowerCase() : null;

/** GitHub Actions: on a pull request, GITHUB_REF is refs/pull/<n>/merge and GITHUB_HEAD_REF the branch. */
function fromGitHub(env: Env): CiRunMetadata {
  const server = value(env, 'GITHUB_SERVER_URL') ?? 'https://github.com';
  const repository = value(env, 'GITHUB_REPOSITORY');
  const runId = value(env, 'GITHUB_RUN_ID');
  const pullRequest = number(/^refs\/pull\/(\d+)\//.exec(env.GITHUB_REF ?? '')?.[1]);
  const headRef = value(env, 'GITHUB_HEAD_REF');
  return {
    provider: 'github',
    commit: hash(value(env, 'GITHUB_SHA')),
    branch: headRef ?? (pullRequest === null ? value(env, 'GITHUB_REF_NAME') : null),
    baseBranch: value(env, 'GITHUB_BASE_REF'),
    pullRequest,
    buildUrl:
      repository && runId
        ? `${server.replace(/\/+$/, '')}/${repository}/actions/runs/${runId}`
        : null,
  };
}

/** GitLab CI: a merge request pipeline has CI_MERGE_REQUEST_IID and its target branch. */
function fromGitLab(env: Env): CiRunMetadata {
  return {
    provider: 'gitlab',
    commit: hash(value(env, 'CI_COMMIT_SHA')),
    branch: value(env, 'CI_MERGE_REQUEST_SOURCE_BRANCH_NAME') ?? value(env, 'CI_COMMIT_REF_NAME'),
    baseBranch: value(env, 'CI_MERGE_REQUEST_TARGET_BRANCH_NAME'),
    pullRequest: number(value(env, 'CI_MERGE_REQUEST_IID')),
    buildUrl: value(env, 'CI_JOB_URL'),
  };
}

/** Any other CI, or none: git's HEAD and branch (none when detached). */
function fromGit(git: Git): CiRunMetadata {
  const branch = git(['rev-parse', '--abbrev-ref', 'HEAD']);
  return {
    provider: 'other',
    commit: hash(git(['rev-parse', 'HEAD'])),
    branch: branch && branch !== 'HEAD' ? branch : null,
    baseBranch: null,
    pullRequest: null,
    buildUrl: null,
  };
}

/** The run's origin from the CI's environment, git filling in what the CI leaves out. */
export function readCiEnvironment(env: Env, git: Git = runGit): CiRunMetadata {
  let found: CiRunMetadata;
  if (env.GITHUB_ACTIONS === 'true') found = fromGitHub(env);
  else if (env.GITLAB_CI === 'true') found = fromGitLab(env);
  else return fromGit(git);
  if (!found.commit || !found.branch) {
    const local = fromGit(git);
    found = {
      ...found,
      commit: found.commit ?? local.commit,
      // A pull request's merge checkout is detached: no branch to take from git then.
      branch: found.branch ?? (found.pullRequest === null ? local.branch : null),
    };
  }
  return found;
}
