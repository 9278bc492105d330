import { describe, expect, it } from 'vitest';
import { readCiEnvironment, type Git } from './ci-env.js';

/** What `--upload` reads of a run's origin from GitHub Actions, GitLab CI and plain git. */

const sha = 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678';
const noGit: Git = () => undefined;
const repo =
  (head: string | undefined, branch: string | undefined): Git =>
  (args) =>
    args.includes('--abbrev-ref') ? branch : head;

describe('readCiEnvironment', () => {
  it('reads a GitHub Actions pull request: its number, head and base branch, and the run URL', () => {
    expect(
      readCiEnvironment(
        {
          GITHUB_ACTIONS: 'true',
          GITHUB_SHA: sha.toUpperCase(),
          GITHUB_REF: 'refs/pull/57/merge',
          GITHUB_REF_NAME: '57/merge',
          GITHUB_HEAD_REF: 'fix/contrast',
          GITHUB_BASE_REF: 'main',
          GITHUB_SERVER_URL: 'https://github.example.com/',
          GITHUB_REPOSITORY: 'acme/shop',
          GITHUB_RUN_ID: '99',
        },
        noGit,
      ),
    ).toEqual({
      provider: 'github',
      commit: sha,
      branch: 'fix/contrast',
      baseBranch: 'main',
      pullRequest: 57,
      buildUrl: 'https://github.example.com/acme/shop/actions/runs/99',
    });
  });

  it('reads a GitHub Actions push to a branch', () => {
    expect(
      readCiEnvironment(
        {
          GITHUB_ACTIONS: 'true',
          GITHUB_SHA: sha,
          GITHUB_REF: 'refs/heads/main',
          GITHUB_REF_NAME: 'main',
          GITHUB_HEAD_REF: '',
          GITHUB_REPOSITORY: 'acme/shop',
          GITHUB_RUN_ID: '7',
        },
        noGit,
      ),
    ).toMatchObject({
      branch: 'main',
      pullRequest: null,
      baseBranch: null,
      buildUrl: 'https://github.com/acme/shop/actions/runs/7',
    });
  });

  it('reads a GitLab merge request pipeline', () => {
    expect(
      readCiEnvironment(
        {
          GITLAB_CI: 'true',
          CI_COMMIT_SHA: sha,
          CI_COMMIT_REF_NAME: 'feature/cart',
          CI_MERGE_REQUEST_IID: '12',
          CI_MERGE_REQUEST_TARGET_BRANCH_NAME: 'develop',
          CI_JOB_URL: 'https://gitlab.example.com/acme/shop/-/jobs/5',
        },
        noGit,
      ),
    ).toEqual({
      provider: 'gitlab',
      commit: sha,
      branch: 'feature/cart',
      baseBranch: 'develop',
      pullRequest: 12,
      buildUrl: 'https://gitlab.example.com/acme/shop/-/jobs/5',
    });
  });

  it('falls back on git elsewhere, with no branch for a detached HEAD', () => {
    expect(readCiEnvironment({ CI: 'true' }, repo(sha, 'main'))).toEqual({
      provider: 'other',
      commit: sha,
      branch: 'main',
      baseBranch: null,
      pullRequest: null,
      buildUrl: null,
    });
    expect(readCiEnvironment({}, repo(sha, 'HEAD'))).toMatchObject({ commit: sha, branch: null });
    expect(readCiEnvironment({}, noGit)).toMatchObject({ commit: null, branch: null });
  });

  it('takes what the CI leaves out from git, but no branch for a pull request’s merge checkout', () => {
    expect(
      readCiEnvironment({ GITLAB_CI: 'true', CI_COMMIT_REF_NAME: 'main' }, repo(sha, 'main')),
    ).toMatchObject({ commit: sha, branch: 'main' });
    expect(
      readCiEnvironment(
        { GITHUB_ACTIONS: 'true', GITHUB_REF: 'refs/pull/3/merge' },
        repo(sha, 'HEAD'),
      ),
    ).toMatchObject({ commit: sha, branch: null, pullRequest: 3 });
  });
});
