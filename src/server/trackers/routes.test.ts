import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '#db/schema/index.js';
import {
  startAccountService,
  TestBrowser,
  type AccountService,
} from '../../../test/support/auth.js';
import { seedDomain } from '../../../test/support/dashboard-seed.js';

/**
 * Integrations over HTTP: who may read them, the 400s bad settings get (before anything is
 * stored), a token that never comes back, and clear answers when an export cannot be made.
 */

let service: AccountService;
const db = () => service.database.db;
let owner: TestBrowser;
const site = 'bakery.example';

beforeAll(async () => {
  service = await startAccountService({ allowPrivateTargets: false });
  owner = new TestBrowser(service.app, '10.8.0.1');
  const email = 'integrations-owner@example.com';
  const registered = await owner.post('/api/auth/register', { email, password: 'Str0ng&Pass' });
  expect(registered.statusCode).toBe(201);
  const [user] = await db().select({ id: users.id }).from(users).where(eq(users.email, email));
  await seedDomain(db(), user!.id, { domain: site, index: 1 });
}, 180_000);
afterAll(() => service?.close());

async function put(body: unknown) {
  return service.app.inject({
    method: 'PUT',
    url: '/api/organisation/integrations',
    remoteAddress: '10.8.0.1',
    headers: { cookie: owner.cookieHeader, 'x-csrf-token': await owner.token() },
    payload: body as object,
  });
}

describe('Settings → Integrations over HTTP', () => {
  it('is refused to a visitor who is not signed in', async () => {
    const visitor = new TestBrowser(service.app, '10.8.0.2');
    expect((await visitor.get('/api/organisation/integrations')).statusCode).toBe(401);
  });

  it('answers bad settings with a 400 that names the problem, and stores nothing', async () => {
    const plain = await put({ webhookUrl: 'http://127.0.0.1:8080/hook' });
    expect(plain.statusCode).toBe(400);
    expect(plain.json().message).toMatch(/must start with https:\/\//);
    const repo = await put({ githubRepo: 'bakery website' });
    expect(repo.statusCode).toBe(400);
    expect(repo.json().message).toMatch(/owner\/name/);
    const unknown = await put({ githubPassword: 'x' });
    expect(unknown.statusCode).toBe(400);
    const read = await owner.get('/api/organisation/integrations');
    expect(read.json()).toMatchObject({
      githubRepo: null,
      webhookUrl: null,
      githubTokenSet: false,
    });
  });

  it('refuses an export before GitHub is set, and an empty or unknown choice', async () => {
    const early = await owner.post(`/api/domains/${site}/tracker/github`, { issueKeys: ['abc'] });
    expect(early.statusCode).toBe(400);
    expect(early.json().message).toMatch(/Settings → Integrations/);
    const none = await owner.post(`/api/domains/${site}/tracker/github`, { issueKeys: [] });
    expect(none.statusCode).toBe(400);
    const csv = await owner.get(`/api/domains/${site}/exports/jira.csv?keys=abc`);
    expect(csv.statusCode).toBe(404);
    expect(csv.json().message).toMatch(/not in the domain's latest scans/);
    expect((await owner.get(`/api/domains/${site}/exports/jira.csv`)).statusCode).toBe(400);
    expect((await owner.get('/api/domains/other.example/exports/jira.csv?keys=a')).statusCode).toBe(
      404,
    );
  });

  it('saves the repository and token and never answers with the token', async () => {
    const token = 'github_pat_never_returned_123456';
    const saved = await put({
      githubRepo: 'bakery/website',
      githubToken: token,
      webhookUrl: 'https://hooks.bakery.example/conformly',
      webhookSecret: 'a-secret-of-enough-length',
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.body).not.toContain(token);
    const read = await owner.get('/api/organisation/integrations');
    expect(read.body).not.toContain(token);
    expect(read.body).not.toContain('a-secret-of-enough-length');
    expect(read.json()).toMatchObject({
      githubRepo: 'bakery/website',
      githubTokenSet: true,
      webhookUrl: 'https://hooks.bakery.example/conformly',
      webhookSecretSet: true,
      deliveries: [],
    });
  });
});
