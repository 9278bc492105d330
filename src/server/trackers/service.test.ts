import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { parse } from 'csv-parse/sync';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AuditLogQuery, issueFingerprint } from '#contract/index.js';
import { ruleGuidance } from '#contract/rule-guidance/index.js';
import type { Database } from '#db/client.js';
import {
  auditSessions,
  domains,
  issues,
  issueTriage,
  pageScans,
  scans,
  trackerLinks,
  trackerSettings,
  webhookDeliveries,
} from '#db/schema/index.js';
import { seedDomain, seedUser } from '../../../test/support/dashboard-seed.js';
import { openTestPglite } from '../../../test/support/db.js';
import { readAuditLog } from '../audit-log/service.js';
import { HttpError } from '../http-errors.js';
import { SecretSealer } from './sealer.js';
import {
  exportToGithub,
  jiraCsv,
  notifyNewIssues,
  notifyScanIssues,
  readIntegrations,
  sendTestWebhook,
  updateIntegrations,
  type TrackerDeps,
} from './service.js';

/**
 * Sending a domain's issues out: settings with sealed, write-only secrets and clear 400s; GitHub
 * issues created against a stand-in GitHub on loopback (what it received, once per issue, and
 * each of GitHub's refusals in words); the Jira CSV read back with a CSV parser; and the webhook
 * verified as a receiver would, with its bounded retries recorded.
 */

let database: Database;
const db = () => database.db;
let deps: TrackerDeps;
let orgId = '';
let domainId = '';
let auditId = '';
/** The organisation's owner as the settings route passes them (request.caller). */
const owner = () => ({
  organisationId: orgId,
  userId: orgId,
  email: 'tracker-owner@example.com',
  ip: '198.51.100.20',
});
const site = 'shop.example';
const token = 'ghp_standin_token_1234567890';
const secret = 'whsec-shared-secret-0123456789';

interface Received {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A small HTTP server that records what it receives and answers what the test says. */
async function standIn(
  answer: (received: Received) => {
    status: number;
    body?: unknown;
    headers?: Record<string, string>;
  },
) {
  const received: Received[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const entry = {
        method: request.method ?? '',
        path: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      received.push(entry);
      const reply = answer(entry);
      response
        .writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers })
        .end(reply.body === undefined ? '' : JSON.stringify(reply.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const logo = {
  ruleKey: '23a2a8',
  selector: 'header > img.logo',
  html: '<img class="logo" src="/logo.png">',
};
const logoKey = issueFingerprint(logo);
const contrast = {
  ruleKey: 'afw4f7',
  selector: 'p.fine-print',
  html: '<p class="fine-print">Terms & "conditions", apply</p>',
};
const contrastKey = issueFingerprint(contrast);

beforeAll(async () => {
  database = await openTestPglite();
  orgId = await seedUser(db(), { email: 'tracker-owner@example.com' });
  await seedDomain(db(), orgId, { domain: site, index: 1 });
  domainId = (await db().select().from(domains).where(eq(domains.domain, site)))[0]!.id;
  deps = {
    db: db(),
    sealer: new SecretSealer(db(), undefined),
    publicUrl: 'https://conformly.test',
    allowPrivateTargets: true,
    webhookRetryDelaysMs: [10, 10],
  };
  const [audit] = await db()
    .insert(auditSessions)
    .values({
      userId: orgId,
      baseUrl: `https://${site}/`,
      domain: site,
      status: 'completed',
      origin: 'monitoring',
      domainId,
      trigger: 'schedule',
      completedAt: new Date(),
    })
    .returning({ id: auditSessions.id });
  auditId = audit!.id;
  for (const [position, path] of ['/', '/about', '/shop'].entries()) {
    const id = randomUUID();
    const url = `https://${site}${path}`;
    await db()
      .insert(pageScans)
      .values({
        id,
        auditSessionId: auditId,
        position,
        url,
        status: 'completed',
        changes: { new: path === '/' ? [logoKey] : [] },
      });
    await db()
      .insert(scans)
      .values({
        id,
        userId: orgId,
        url,
        domain: site,
        origin: 'monitoring',
        status: 'completed',
        screenshots: [`/api/artifacts/shot-${position}`],
      });
    const found = path === '/shop' ? [logo, contrast] : [logo];
    await db()
      .insert(issues)
      .values(
        found.map((issue) => ({
          scanId: id,
          issueKey: issueFingerprint(issue),
          title: 'stored title',
          description: 'stored description',
          rule: issue.ruleKey === '23a2a8' ? 'image-alt' : 'color-contrast',
          ruleKey: issue.ruleKey,
          impact: issue.ruleKey === '23a2a8' ? ('critical' as const) : ('serious' as const),
          kind: 'violation' as const,
          confidence: 'confirmed' as const,
          wcag: issue.ruleKey === '23a2a8' ? ['1.1.1'] : ['1.4.3'],
          selector: issue.selector,
          html: issue.html,
          source: 'axe' as const,
          engines: ['axe' as const],
          rules: { axe: ['image-alt'] },
          helpUrl: 'https://dequeuniversity.com/rules/axe/4.10/image-alt',
        })),
      );
  }
}, 120_000);
afterAll(() => database?.close());

async function refusal(promise: Promise<unknown>) {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(HttpError);
  return error as HttpError;
}

describe('integration settings', () => {
  it('refuses a webhook URL without https and a repository not written owner/name, with 400s that say why', async () => {
    const closed = { ...deps, allowPrivateTargets: false };
    const plain = await refusal(
      updateIntegrations(closed, orgId, { webhookUrl: 'http://127.0.0.1:9/hook' }, owner()),
    );
    expect(plain.statusCode).toBe(400);
    expect(plain.message).toMatch(/webhook URL must start with https:\/\//);
    // Loopback over http is allowed only where private targets are (tests); elsewhere never.
    const elsewhere = await refusal(
      updateIntegrations(deps, orgId, { webhookUrl: 'http://hooks.example.com/x' }, owner()),
    );
    expect(elsewhere.statusCode).toBe(400);
    const repo = await refusal(
      updateIntegrations(deps, orgId, { githubRepo: 'just-a-name' }, owner()),
    );
    expect(repo.statusCode).toBe(400);
    expect(repo.message).toMatch(/owner\/name/);
    const short = await refusal(
      updateIntegrations(deps, orgId, { webhookSecret: 'short' }, owner()),
    );
    expect(short.message).toMatch(/at least 16 characters/);
    // Nothing was stored by the refused changes.
    expect(await db().select().from(trackerSettings)).toEqual([]);
  });

  it('stores the token and secret sealed and only ever says whether they are set', async () => {
    const view = await updateIntegrations(
      deps,
      orgId,
      {
        githubRepo: 'https://github.com/acme/site',
        githubToken: token,
        webhookUrl: 'https://hooks.example.com/conformly',
        webhookSecret: secret,
      },
      owner(),
    );
    expect(view).toMatchObject({
      githubRepo: 'acme/site',
      githubTokenSet: true,
      webhookSecretSet: true,
      githubApiUrl: 'https://api.github.com',
    });
    expect(JSON.stringify(view)).not.toContain(token);
    const [row] = await db().select().from(trackerSettings);
    expect(JSON.stringify(row)).not.toContain(token);
    expect(JSON.stringify(row)).not.toContain(secret);
    expect(await deps.sealer.open(row!.githubTokenSealed)).toBe(token);
    // Leaving a secret out keeps it; an empty one clears it.
    const kept = await updateIntegrations(deps, orgId, { githubRepo: 'acme/site' }, owner());
    expect(kept.githubTokenSet).toBe(true);
    const cleared = await updateIntegrations(deps, orgId, { webhookSecret: '' }, owner());
    expect(cleared.webhookSecretSet).toBe(false);
    expect((await readIntegrations(deps, orgId)).githubTokenSet).toBe(true);
  });

  it('writes each change to the audit log with who made it, naming secrets only as set or removed', async () => {
    const changes = async () =>
      (
        await readAuditLog(
          db(),
          orgId,
          AuditLogQuery.parse({ action: 'integrations.changed', pageSize: 200 }),
        )
      ).entries;
    const before = (await changes()).length;
    const hook = 'https://hooks.example.com/services/T0/B0/path-secret-123?key=query-secret-456';
    await updateIntegrations(
      deps,
      orgId,
      {
        githubApiUrl: 'https://api.github.com',
        githubRepo: 'acme/storefront',
        githubToken: 'ghp_another_token_0987654321',
        webhookUrl: hook,
        webhookSecret: 'whsec-a-fresh-secret-000111',
      },
      owner(),
    );
    const [entry, ...rest] = await changes();
    expect(rest.length).toBe(before);
    expect(entry).toMatchObject({
      actor: 'tracker-owner@example.com',
      actorIsPerson: true,
      action: 'integrations.changed',
      actionLabel: 'Integration settings changed',
      ip: '198.51.100.20',
      target: { type: 'organisation', id: orgId },
    });
    // The API address did not change, so it is not named; the token and secret were set before.
    expect(entry!.details).toEqual({
      githubRepo: 'acme/storefront',
      githubToken: 'replaced',
      webhookUrl: 'https://hooks.example.com/…',
      webhookSecret: 'set',
    });
    const written = JSON.stringify(entry);
    for (const secretPart of ['ghp_another', 'whsec-a-fresh', 'path-secret', 'query-secret']) {
      expect(written).not.toContain(secretPart);
    }

    await updateIntegrations(deps, orgId, { githubToken: '', webhookUrl: null }, owner());
    const [removal] = await changes();
    expect(removal!.details).toEqual({ githubToken: 'removed', webhookUrl: null });

    // Saving what is already stored changes nothing and writes nothing.
    await updateIntegrations(
      deps,
      orgId,
      { githubRepo: 'acme/storefront', githubToken: '' },
      owner(),
    );
    expect((await changes()).length).toBe(before + 2);
    // A refused change writes nothing either.
    await refusal(updateIntegrations(deps, orgId, { githubRepo: 'no-slash' }, owner()));
    expect((await changes()).length).toBe(before + 2);
  });
});

describe('GitHub issues', () => {
  let github: Awaited<ReturnType<typeof standIn>>;
  let answer: (received: Received) => {
    status: number;
    body?: unknown;
    headers?: Record<string, string>;
  };
  let next = 1;

  beforeAll(async () => {
    github = await standIn((received) => answer(received));
    await updateIntegrations(
      deps,
      orgId,
      { githubApiUrl: github.url, githubRepo: 'acme/site', githubToken: token },
      owner(),
    );
  });
  afterAll(() => github.close());
  beforeEach(async () => {
    github.received.length = 0;
    await db().delete(trackerLinks);
    answer = () => {
      const number = next++;
      return {
        status: 201,
        body: { number, html_url: `https://github.com/acme/site/issues/${number}` },
      };
    };
  });

  it('creates one issue per chosen issue with its pages, element and fix steps, and never sends it twice', async () => {
    const first = await exportToGithub(deps, orgId, site, [logoKey], null);
    expect(first.created).toHaveLength(1);
    expect(first.created[0]!.url).toMatch(/^https:\/\/github\.com\/acme\/site\/issues\/\d+$/);
    expect(github.received).toHaveLength(1);
    const sent = github.received[0]!;
    expect(sent.method).toBe('POST');
    expect(sent.path).toBe('/repos/acme/site/issues');
    expect(sent.headers.authorization).toBe(`Bearer ${token}`);
    expect(sent.headers.accept).toBe('application/vnd.github+json');
    const body = JSON.parse(sent.body) as { title: string; body: string };
    expect(body.title).toBe('Image has no text alternative');
    for (const path of ['/', '/about', '/shop']) {
      expect(body.body).toContain(`- https://${site}${path} (`);
    }
    expect(body.body).toContain('`header > img.logo`');
    expect(body.body).toContain('```html\n<img class="logo" src="/logo.png">\n```');
    expect(body.body).toContain('https://conformly.test/api/artifacts/shot-0');
    expect(body.body).toContain('1.1.1');
    expect(body.body).toContain(`1. ${ruleGuidance('23a2a8')!.fix[0]}`);

    const again = await exportToGithub(deps, orgId, site, [logoKey, contrastKey], null);
    expect(again.alreadySent.map((link) => link.issueKey)).toEqual([logoKey]);
    expect(again.created.map((link) => link.issueKey)).toEqual([contrastKey]);
    expect(github.received).toHaveLength(2);
    expect(await db().select().from(trackerLinks)).toHaveLength(2);
  });

  it.each([
    [401, {}, /refused the token \(401/],
    [404, {}, /no repository acme\/site this token can see \(404\)/],
    [422, {}, /could not create the issue \(422: "Validation Failed"\)/],
    [
      403,
      { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '1900000000' },
      /rate limit .* try again after 2030-/,
    ],
  ] as const)(
    'turns GitHub answering %i into a 4xx that says what to do',
    async (status, headers, message) => {
      answer = () => ({ status, headers: { ...headers }, body: { message: 'Validation Failed' } });
      const error = await refusal(exportToGithub(deps, orgId, site, [logoKey], null));
      expect(error.statusCode).toBeGreaterThanOrEqual(400);
      expect(error.statusCode).toBeLessThan(500);
      expect(error.message).toMatch(message);
      expect(await db().select().from(trackerLinks)).toEqual([]);
    },
  );

  it("sends an issue that a later scan of one page found, as the triage screen and the scan's report show it", async () => {
    const button = {
      ruleKey: '97a4e1',
      selector: 'form > button.send',
      html: '<button class="send"><svg></svg></button>',
    };
    const buttonKey = issueFingerprint(button);
    const stale = {
      ...button,
      selector: 'form > button.old',
      html: '<button class="old"><svg></svg></button>',
    };
    const scanOf = async (path: string, completedAt: Date, found: (typeof button)[]) => {
      const id = randomUUID();
      await db()
        .insert(scans)
        .values({
          id,
          userId: orgId,
          url: `https://${site}${path}`,
          domain: site,
          status: 'completed',
          completedAt,
          screenshots: [`/api/artifacts/contact-${id}`],
        });
      await db()
        .insert(issues)
        .values(
          found.map((issue) => ({
            scanId: id,
            issueKey: issueFingerprint(issue),
            title: 'stored title',
            description: 'stored description',
            rule: 'button-name',
            ruleKey: issue.ruleKey,
            impact: 'critical' as const,
            kind: 'violation' as const,
            confidence: 'confirmed' as const,
            wcag: ['4.1.2'],
            selector: issue.selector,
            html: issue.html,
            source: 'axe' as const,
            engines: ['axe' as const],
            rules: { axe: ['button-name'] },
            helpUrl: 'https://dequeuniversity.com/rules/axe/4.10/button-name',
          })),
        );
      return id;
    };
    // An earlier scan of /contact found an element the latest one no longer has.
    await scanOf('/contact', new Date(Date.now() - 60_000), [stale]);
    const latest = await scanOf('/contact', new Date(), [button]);

    const result = await exportToGithub(deps, orgId, site, [buttonKey], null);
    expect(result.created.map((link) => link.issueKey)).toEqual([buttonKey]);
    const body = JSON.parse(github.received[0]!.body) as { title: string; body: string };
    expect(body.body).toContain(`- https://${site}/contact (`);
    expect(body.body).toContain(`https://conformly.test/report/${latest}`);
    expect(body.body).toContain('`form > button.send`');
    expect(body.body).not.toContain(`https://${site}/shop`);
    // What only an earlier scan found is gone from the page: nothing to send.
    const gone = await refusal(exportToGithub(deps, orgId, site, [issueFingerprint(stale)], null));
    expect(gone.statusCode).toBe(404);
    expect(github.received).toHaveLength(1);
  });

  it('refuses an issue not in the latest audit and a domain of another organisation', async () => {
    expect((await refusal(exportToGithub(deps, orgId, site, ['nope'], null))).statusCode).toBe(404);
    const other = await seedUser(db(), { email: 'tracker-other@example.com' });
    expect((await refusal(exportToGithub(deps, other, site, [logoKey], null))).statusCode).toBe(
      404,
    );
    expect(github.received).toEqual([]);
  });
});

describe('the Jira CSV', () => {
  it("reads back as rows Jira's importer maps: summary, type, priority, description, labels", async () => {
    const csv = await jiraCsv(deps, orgId, site, [logoKey, contrastKey]);
    const [header, ...rows] = parse(csv) as string[][];
    expect(header!.slice(0, 4)).toEqual(['Summary', 'Issue Type', 'Priority', 'Description']);
    expect(header!.slice(4).every((name) => name === 'Labels')).toBe(true);
    expect(rows).toHaveLength(2);
    const [image, text] = rows as [string[], string[]];
    expect(image.slice(0, 3)).toEqual(['Image has no text alternative', 'Bug', 'Highest']);
    expect(image[3]).toContain('{code:html}\n<img class="logo" src="/logo.png">\n{code}');
    expect(image[3]).toContain(`https://${site}/about`);
    expect(image[3]).toContain(`# ${ruleGuidance('23a2a8')!.fix[0]}`);
    expect(image.slice(4).filter(Boolean)).toEqual([
      'accessibility',
      'impact-critical',
      'wcag-1.1.1',
    ]);
    expect(text.slice(0, 3)).toEqual(['Text has too little contrast', 'Bug', 'High']);
    // Quotes and commas in the snippet survive the round trip.
    expect(text[3]).toContain(contrast.html);
  });
});

describe('the signed webhook', () => {
  let receiver: Awaited<ReturnType<typeof standIn>>;
  let statuses: number[] = [];

  /** What a receiver does: recompute the HMAC over `timestamp.body` and compare in constant time. */
  function verified(received: Received): boolean {
    const timestamp = String(received.headers['x-conformly-timestamp']);
    const signature = String(received.headers['x-conformly-signature']);
    const expected = `sha256=${createHmac('sha256', secret).update(`${timestamp}.${received.body}`).digest('hex')}`;
    return (
      signature.length === expected.length &&
      timingSafeEqual(Buffer.from(signature), Buffer.from(expected)) &&
      Math.abs(Date.now() / 1000 - Number(timestamp)) < 300
    );
  }

  beforeAll(async () => {
    receiver = await standIn(() => ({ status: statuses.shift() ?? 200 }));
    await updateIntegrations(
      deps,
      orgId,
      { webhookUrl: `${receiver.url}/hook`, webhookSecret: secret },
      owner(),
    );
  });
  afterAll(() => receiver.close());
  beforeEach(async () => {
    receiver.received.length = 0;
    statuses = [];
    await db().delete(webhookDeliveries);
  });

  it('sends a test event the receiver can verify, and records it', async () => {
    const delivery = await sendTestWebhook(deps, orgId);
    expect(delivery).toMatchObject({ event: 'ping', statusCode: 200, error: null });
    expect(receiver.received).toHaveLength(1);
    expect(verified(receiver.received[0]!)).toBe(true);
    // A body changed on the way no longer verifies.
    expect(
      verified({
        ...receiver.received[0]!,
        body: receiver.received[0]!.body.replace('ping', 'pong'),
      }),
    ).toBe(false);
    expect((await readIntegrations(deps, orgId)).deliveries).toHaveLength(1);
  });

  it('posts the new critical and serious issues after a site audit, retrying a failing receiver a bounded number of times', async () => {
    statuses = [503, 500];
    expect(await notifyNewIssues(deps, auditId)).toEqual({ sent: true });
    expect(receiver.received).toHaveLength(3);
    expect(receiver.received.every(verified)).toBe(true);
    const payload = JSON.parse(receiver.received[2]!.body) as {
      event: string;
      domain: string;
      issues: { id: string; impact: string; pageUrl: string; title: string }[];
    };
    expect(payload).toMatchObject({ event: 'issues.new', domain: site });
    // Every try of one event carries the same delivery id, so a receiver can drop repeats.
    expect(
      new Set(receiver.received.map((entry) => entry.headers['x-conformly-delivery'])),
    ).toEqual(new Set([`issues.new-${auditId}`]));
    expect(payload.issues).toEqual([
      expect.objectContaining({
        id: logoKey,
        impact: 'critical',
        pageUrl: `https://${site}/`,
        title: 'Image has no text alternative',
      }),
    ]);
    const shown = (await readIntegrations(deps, orgId)).deliveries;
    expect(shown.map((delivery) => delivery.statusCode)).toEqual([200, 500, 503]);

    // A receiver that keeps failing is tried three times in all; a 4xx is not retried.
    statuses = [500, 500, 500, 500];
    await notifyNewIssues(deps, auditId);
    expect(receiver.received).toHaveLength(6);
    statuses = [400];
    await notifyNewIssues(deps, auditId);
    expect(receiver.received).toHaveLength(7);
  });

  it('posts the new critical and serious issues of a scan of one page of a monitored domain (ADR 0041)', async () => {
    const finding = (ruleKey: string, selector: string, impact: 'critical' | 'minor') => ({
      ruleKey,
      selector,
      html: `<div class="${selector}"></div>`,
      impact,
    });
    const kept = finding('97a4e1', 'kept', 'critical');
    const added = finding('97a4e1', 'added', 'critical');
    const minor = finding('97a4e1', 'minor', 'minor');
    const judged = finding('97a4e1', 'judged', 'critical');
    const pageScan = async (
      path: string,
      completedAt: Date,
      found: ReturnType<typeof finding>[],
      owner = orgId,
      domain = site,
    ) => {
      const id = randomUUID();
      await db()
        .insert(scans)
        .values({
          id,
          userId: owner,
          url: `https://${domain}${path}`,
          domain,
          status: 'completed',
          completedAt,
        });
      if (found.length > 0) {
        await db()
          .insert(issues)
          .values(
            found.map((issue) => ({
              scanId: id,
              issueKey: issueFingerprint(issue),
              title: 'stored title',
              description: 'stored description',
              rule: 'button-name',
              ruleKey: issue.ruleKey,
              impact: issue.impact,
              kind: 'violation' as const,
              confidence: 'confirmed' as const,
              wcag: ['4.1.2'],
              selector: issue.selector,
              html: issue.html,
              source: 'axe' as const,
              engines: ['axe' as const],
              rules: { axe: ['button-name'] },
              helpUrl: 'https://dequeuniversity.com/rules/axe/4.10/button-name',
            })),
          );
      }
      return id;
    };
    const hourAgo = new Date(Date.now() - 3_600_000);
    await pageScan('/checkout', hourAgo, [kept]);
    // The team judged one element a false positive: it is never announced.
    await db()
      .insert(issueTriage)
      .values({ domainId, issueKey: issueFingerprint(judged), state: 'false_positive' });
    const scanId = await pageScan('/checkout', new Date(), [kept, added, minor, judged]);

    expect(await notifyScanIssues(deps, scanId)).toEqual({ sent: true });
    expect(receiver.received).toHaveLength(1);
    const [delivery] = receiver.received;
    expect(verified(delivery!)).toBe(true);
    expect(delivery!.headers['x-conformly-event']).toBe('issues.new');
    expect(delivery!.headers['x-conformly-delivery']).toBe(`issues.new-scan-${scanId}`);
    const payload = JSON.parse(delivery!.body) as Record<string, unknown>;
    expect(payload).toMatchObject({
      event: 'issues.new',
      source: 'scan',
      domain: site,
      scanId,
      auditId: null,
    });
    expect(payload.issues).toEqual([
      {
        id: issueFingerprint(added),
        title: 'Button has no accessible name',
        impact: 'critical',
        wcag: ['4.1.2'],
        pageUrl: `https://${site}/checkout`,
        selector: 'added',
        reportUrl: `https://conformly.test/report/${scanId}`,
      },
    ]);

    // Nothing for a page's first scan, a scan with nothing new, a page of a site audit (its
    // audit notifies as a whole), or a domain the organisation does not monitor.
    const first = await pageScan('/first', new Date(), [added]);
    expect(await notifyScanIssues(deps, first)).toEqual({
      sent: false,
      reason: 'first scan of the page',
    });
    const again = await pageScan('/checkout', new Date(Date.now() + 1_000), [kept, added]);
    expect((await notifyScanIssues(deps, again)).sent).toBe(false);
    const [auditPage] = await db()
      .select({ id: pageScans.id })
      .from(pageScans)
      .where(eq(pageScans.auditSessionId, auditId));
    expect(await notifyScanIssues(deps, auditPage!.id)).toEqual({
      sent: false,
      reason: 'a page of a site audit, which notifies as a whole',
    });
    await pageScan('/', hourAgo, [], orgId, 'elsewhere.example');
    const elsewhere = await pageScan('/', new Date(), [added], orgId, 'elsewhere.example');
    expect(await notifyScanIssues(deps, elsewhere)).toEqual({
      sent: false,
      reason: 'domain not monitored',
    });
    expect(receiver.received).toHaveLength(1);
  });
});
