import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startAccountService,
  TestBrowser,
  type AccountService,
} from '../../../test/support/auth.js';
import { TriageChangeResponse, TriageListResponse } from '#contract/index.js';
import { domains, issues, scans, users } from '#db/schema/index.js';

/** Triage over HTTP: sign-in, validation with messages that name the field, 404 for others. */

let service: AccountService;
let owner: TestBrowser;
let other: TestBrowser;
let anonymous: TestBrowser;
const password = 'Correct-Horse1!';
const domain = 'routes-triage.test';
const url = `/api/domains/${domain}/triage`;

async function registered(email: string, address: string) {
  const browser = new TestBrowser(service.app, address);
  const response = await browser.post('/api/auth/register', { email, password });
  expect(response.statusCode).toBe(201);
  return browser;
}

beforeAll(async () => {
  service = await startAccountService();
  owner = await registered('owner@routes-triage.test', '198.51.100.11');
  other = await registered('other@routes-triage.test', '198.51.100.12');
  anonymous = new TestBrowser(service.app, '198.51.100.13');
  const db = service.database.db;
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.email, 'owner@routes-triage.test'));
  await db.insert(domains).values({
    userId: row!.id,
    domain,
    status: 'active',
    domainIndex: 1,
    monthlyPrice: 4900,
    monitoringSince: new Date(),
  });
  const [scan] = await db
    .insert(scans)
    .values({
      userId: row!.id,
      url: `https://${domain}/`,
      domain,
      status: 'completed',
      completedAt: new Date(),
    })
    .returning({ id: scans.id });
  await db.insert(issues).values({
    scanId: scan!.id,
    issueKey: 'k1',
    title: 'Image has no alt',
    description: 'An image without a text alternative',
    rule: 'image-alt',
    ruleKey: '23a2a8',
    impact: 'critical',
    kind: 'violation',
    confidence: 'confirmed',
    wcag: ['1.1.1'],
    selector: 'img.logo',
    html: '<img class="logo">',
    source: 'axe',
    engines: ['axe'],
    rules: { axe: ['image-alt'] },
  });
}, 120_000);
afterAll(async () => {
  await service?.close();
});

describe('the triage API', () => {
  it('asks anonymous callers to log in', async () => {
    expect((await anonymous.get(url)).statusCode).toBe(401);
  });

  it('refuses a change that lacks what it needs, saying which field', async () => {
    const noNote = await owner.post(url, { action: 'false_positive', issueKeys: ['k1'] });
    expect(noNote.statusCode).toBe(400);
    expect(noNote.json().message).toBe('note: Say why this is a false positive');
    const badDate = await owner.post(url, {
      action: 'accept',
      issueKeys: ['k1'],
      reason: 'Vendor widget',
      until: 'next spring',
    });
    expect(badDate.statusCode).toBe(400);
    expect(badDate.json().message).toContain('until: Give a date as YYYY-MM-DD');
    const none = await owner.post(url, { action: 'open', issueKeys: [] });
    expect(none.statusCode).toBe(400);
    expect(none.json().message).toContain('issueKeys: Choose at least one issue');
    const unknown = await owner.post(url, { action: 'delete', issueKeys: ['k1'] });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toContain('One of false_positive, accept, open or assign');
    // Nothing was stored by the refused calls.
    const list = TriageListResponse.parse((await owner.get(url)).json());
    expect(list.triage).toEqual([]);
  });

  it('marks a false positive and lists it; another organisation gets a 404', async () => {
    const response = await owner.post(url, {
      action: 'false_positive',
      issueKeys: ['k1'],
      note: 'Decorative',
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(TriageChangeResponse.parse(response.json()).triage[0]).toMatchObject({
      issueKey: 'k1',
      state: 'false_positive',
      note: 'Decorative',
    });
    const list = TriageListResponse.parse((await owner.get(`${url}?state=false_positive`)).json());
    expect(list.issues.map((issue) => [issue.issueKey, issue.title])).toEqual([
      ['k1', 'Image has no text alternative'],
    ]);
    const history = await owner.get(`${url}/k1`);
    expect(history.json().events).toHaveLength(1);

    expect((await other.get(url)).statusCode).toBe(404);
    const foreign = await other.post(url, { action: 'open', issueKeys: ['k1'] });
    expect(foreign.statusCode).toBe(404);
    expect((await owner.post(url, { action: 'open', issueKeys: ['nope'] })).statusCode).toBe(404);
  });
});
