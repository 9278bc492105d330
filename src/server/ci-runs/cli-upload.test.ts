/**
 * `--upload` end to end: the package bin spawned as a CI job runs it, scanning a small page on
 * 127.0.0.1 and uploading to a real Conformly server listening on another port, with the
 * GitHub Actions environment of a push to main. A token with `results:upload` puts the run into
 * the domain's history; a token without the scope is refused with 403 and a revoked one with
 * 401, both reported without failing the job; `--upload-required` turns a refusal into exit 2.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiTokenScope, SiteAuditList } from '#contract/index.js';
import { users } from '#db/schema/index.js';
import { createToken, revokeToken } from '../tokens/service.js';
import {
  startAccountService,
  TestBrowser,
  type AccountService,
} from '../../../test/support/auth.js';
import { seedDomain } from '../../../test/support/dashboard-seed.js';
import { startServer, type TestServer } from '../../../test/support/static-server.js';

const bin = fileURLToPath(new URL('../../../bin/conformly.js', import.meta.url));
const domain = 'shop.example';
const commit = '0123456789abcdef0123456789abcdef01234567';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** The job's environment: this process's, less any CI's or Conformly's own, plus `extra`. */
function jobEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { NO_COLOR: '1' };
  for (const [name, value] of Object.entries(process.env)) {
    if (/^(GITHUB_|GITLAB|CI_|CONFORMLY_)/.test(name)) continue;
    env[name] = value;
  }
  return { ...env, ...extra };
}

function conformly(env: Record<string, string>, ...args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [bin, ...args],
      { timeout: 150_000, maxBuffer: 20 * 1024 * 1024, env: jobEnv(env) },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

let service: AccountService;
let server: string;
let site: TestServer;
let owner: TestBrowser;
let organisationId: string;

const actor = () => ({ userId: organisationId, email: 'ci-upload@example.com', organisationId });

async function newToken(scopes: ApiTokenScope[]) {
  const created = await createToken({ db: service.database.db }, actor(), {
    name: scopes.join(' '),
    scopes,
    expiresInDays: 30,
  });
  return { id: created.token.id, secret: created.secret };
}

/** A push to main on GitHub Actions. */
const github = {
  GITHUB_ACTIONS: 'true',
  GITHUB_SHA: commit,
  GITHUB_REF: 'refs/heads/main',
  GITHUB_REF_NAME: 'main',
  GITHUB_SERVER_URL: 'https://github.com',
  GITHUB_REPOSITORY: 'acme/shop',
  GITHUB_RUN_ID: '4242',
};

beforeAll(async () => {
  site = await startServer((_req, res) => {
    res
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      .end(
        '<!doctype html><html lang="en"><head><title>Shop</title></head><body><main><h1>Shop</h1><img src="/logo.png"></main></body></html>',
      );
  });
  service = await startAccountService({}, { tokenRateLimit: { max: 1000, timeWindowMs: 60_000 } });
  server = await service.app.listen({ host: '127.0.0.1', port: 0 });
  owner = new TestBrowser(service.app, '10.7.0.1');
  const registered = await owner.post('/api/auth/register', {
    email: 'ci-upload@example.com',
    password: 'Str0ng&Pass',
  });
  expect(registered.statusCode).toBe(201);
  const [user] = await service.database.db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.email, 'ci-upload@example.com'));
  organisationId = user!.id;
  await seedDomain(service.database.db, organisationId, { domain, index: 1 });
}, 180_000);

afterAll(async () => {
  await service?.close();
  await site?.close();
});

describe('conformly --upload', () => {
  it("puts a run into the domain's history with a results:upload token", async () => {
    const { secret } = await newToken(['results:upload']);
    const run = await conformly(
      { ...github, CONFORMLY_SERVER: server, CONFORMLY_TOKEN: secret },
      'ci',
      `${site.url}/`,
      '--engines',
      'axe',
      '--upload',
      '--upload-domain',
      domain,
    );
    expect(run.stderr).toContain(
      `Uploaded to http://127.0.0.1:3000/app/dashboard/domains/${domain}`,
    );
    expect(run.stderr).toMatch(/Stored a CI run of shop\.example: score \d+ over 1 page/);
    // The page has a violation: the job fails on it, as without --upload.
    expect(run.code).toBe(1);

    const history = await owner.get(`/api/domains/${domain}/monitoring`);
    const list = history.json() as SiteAuditList;
    const uploaded = list.audits.find((audit) => audit.origin === 'ci');
    expect(uploaded).toMatchObject({
      status: 'completed',
      totalPages: 1,
      ciRun: {
        provider: 'github',
        commit,
        branch: 'main',
        pullRequest: null,
        buildUrl: 'https://github.com/acme/shop/actions/runs/4242',
      },
    });
    expect(uploaded!.totalIssues).toBeGreaterThan(0);
  }, 180_000);

  it('reports a 403 for a token without the scope, and a 401 for a revoked one, without failing the job', async () => {
    const reader = await newToken(['scans:read']);
    const refused = await conformly(
      { CONFORMLY_SERVER: server, CONFORMLY_TOKEN: reader.secret },
      'scan',
      `${site.url}/`,
      '--engines',
      'axe',
      '--format',
      'json',
      '--upload',
      '--upload-domain',
      domain,
    );
    expect(refused.code).toBe(0);
    expect(JSON.parse(refused.stdout)).toHaveLength(1);
    expect(refused.stderr).toMatch(
      /Warning: the results were not uploaded: .* answered 403: .*results:upload/,
    );

    const revoked = await newToken(['results:upload']);
    await revokeToken({ db: service.database.db }, actor(), revoked.id);
    const gone = await conformly(
      { CONFORMLY_SERVER: server, CONFORMLY_TOKEN: revoked.secret },
      'scan',
      `${site.url}/`,
      '--engines',
      'axe',
      '--format',
      'json',
      '--upload',
      '--upload-domain',
      domain,
    );
    expect(gone.code).toBe(0);
    expect(gone.stderr).toMatch(/answered 401: .*revoked/i);
  }, 300_000);

  it('exits 2 with the server’s message when the upload is required and refused', async () => {
    const reader = await newToken(['scans:read']);
    const run = await conformly(
      { CONFORMLY_SERVER: server, CONFORMLY_TOKEN: reader.secret },
      'scan',
      `${site.url}/`,
      '--engines',
      'axe',
      '--format',
      'json',
      '--upload-required',
      '--upload-domain',
      domain,
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/conformly: Upload failed: .* answered 403: .*results:upload/);
  }, 180_000);
});
