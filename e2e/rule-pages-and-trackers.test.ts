import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile } from 'node:fs/promises';
import { parse } from 'csv-parse/sync';
import { and, desc, eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { ruleGuidance } from '#contract/rule-guidance/index.js';
import { auditSessions, pageScans, trackerLinks, users } from '#db/schema/index.js';
import { startAlertWorkers } from '#jobs/alerts.js';
import { requestSiteAudit } from '#jobs/site-audit-requests.js';
import { SecretSealer } from '#server/trackers/sealer.js';
import { notifyScanIssues } from '#server/trackers/service.js';
import { seedDomain } from '../test/support/dashboard-seed.js';
import { blockingAxeViolations } from './support/axe.js';
import { signUp, uniqueEmail } from './support/accounts.js';
import { screenshot, takePageErrors, useWebApp } from './support/web-app.js';
import { setBillingAccount } from '../test/support/billing-account.js';

/**
 * From a barrier to a tracker, as a site team lives it: a monitored site of five pages whose
 * shared header has an image without a text alternative is audited; the domain's Rules and
 * pages screen lists that rule on all five pages with the element; the owner sets a GitHub
 * repository and token in Settings → Integrations (the API being a stand-in GitHub on loopback),
 * chooses the element and creates the issue: the stand-in received it with the pages, element
 * and fix steps, and the screen links to it. The same choice downloads as a Jira CSV. The
 * contact page's unlabelled field is sent from the Triage screen, and the report of that page
 * offers each issue's triage and GitHub there too.
 */

const siteHost = '127.0.0.6';
const sitePaths = ['/', '/about', '/shop', '/contact', '/blog'];
const githubToken = 'github_pat_standin_0123456789';
/** Set by the last test: the contact page gains a button without a name. */
let contactButton = false;

let site: Server;
let siteUrl = '';

function pageHtml(path: string): string {
  const name = path === '/' ? 'Home' : path.slice(1);
  const nav = sitePaths.map(
    (href) => `<a href="${href}">${href === '/' ? 'Home' : href.slice(1)}</a>`,
  );
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${name} · Bakery</title></head>
<body><header><img class="brand-logo" src="/logo.png" width="120" height="40"><nav aria-label="Main">${nav.join(' ')}</nav></header>
<main><h1>${name}</h1><p>Fresh bread every morning on the ${name} page.</p>${path === '/contact' ? `<input type="text" id="message" name="message">${contactButton ? '<button type="submit" class="send"></button>' : ''}` : ''}</main>
<footer><p>Bakery footer</p></footer></body></html>`;
}

interface Received {
  method: string;
  path: string;
  authorization: string | undefined;
  body: string;
}
const githubReceived: Received[] = [];
let github: Server;
let githubUrl = '';
const webhookSecret = 'bakery-webhook-secret-2026';
/** Whether each delivery's signature checked out, as the receiver computed it. */
const webhookVerified: boolean[] = [];
/** The body of each delivery the receiver got. */
const webhookBodies: string[] = [];
let receiver: Server;
let receiverUrl = '';

beforeAll(async () => {
  site = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (url.pathname === '/robots.txt') {
      response.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nAllow: /\n');
    } else if (url.pathname === '/sitemap.xml') {
      const entries = sitePaths.map((path) => `<url><loc>${siteUrl}${path}</loc></url>`);
      response
        .writeHead(200, { 'content-type': 'application/xml' })
        .end(
          `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${entries.join('')}</urlset>`,
        );
    } else if (url.pathname === '/logo.png') {
      response.writeHead(404).end();
    } else if (sitePaths.includes(url.pathname)) {
      response
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end(pageHtml(url.pathname));
    } else {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
    }
  });
  await new Promise<void>((resolve) => site.listen(0, siteHost, resolve));
  siteUrl = `http://${siteHost}:${(site.address() as AddressInfo).port}`;

  // The stand-in GitHub: records each request and answers as GitHub's "create an issue" does.
  github = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      githubReceived.push({
        method: request.method ?? '',
        path: request.url ?? '',
        authorization: request.headers.authorization,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      const number = 41 + githubReceived.length;
      response.writeHead(201, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          number,
          html_url: `https://github.com/bakery/website/issues/${number}`,
        }),
      );
    });
  });
  await new Promise<void>((resolve) => github.listen(0, '127.0.0.1', resolve));
  githubUrl = `http://127.0.0.1:${(github.address() as AddressInfo).port}`;

  // A webhook receiver that checks the signature as the README tells receivers to.
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const timestamp = String(request.headers['x-conformly-timestamp']);
      const expected = `sha256=${createHmac('sha256', webhookSecret).update(`${timestamp}.${body}`).digest('hex')}`;
      const signature = String(request.headers['x-conformly-signature']);
      const valid =
        signature.length === expected.length &&
        timingSafeEqual(Buffer.from(signature), Buffer.from(expected));
      webhookVerified.push(valid);
      webhookBodies.push(body);
      response.writeHead(valid ? 204 : 401).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/conformly`;
});
afterAll(async () => {
  for (const server of [site, github, receiver]) {
    server?.closeAllConnections();
    await new Promise<void>((resolve) => server?.close(() => resolve()));
  }
});

const app = useWebApp('shared', () => ({ worker: { monitorMaxPages: 5 } }));
let page: Page;
const owner = uniqueEmail('rules-owner');
const db = () => app.web.service.database.db;

async function latestAudit() {
  const [audit] = await db()
    .select()
    .from(auditSessions)
    .where(and(eq(auditSessions.domain, siteHost), eq(auditSessions.origin, 'monitoring')))
    .orderBy(desc(auditSessions.createdAt));
  return audit;
}

async function noHorizontalScroll(at: Page) {
  return at.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
}

describe('rule-to-pages view and tracker export', () => {
  beforeAll(async () => {
    page = app.page;
    await signUp(page, owner);
    const [user] = await db().select().from(users).where(eq(users.email, owner));
    // Compliance Shield, as a paid plan leaves its billing account.
    await setBillingAccount(db(), user!.id, { subscriptionStatus: 'active' });
    const seededId = await seedDomain(db(), user!.id, {
      domain: siteHost,
      index: 1,
      verified: true,
      startUrl: `${siteUrl}/`,
    });
    const requested = await requestSiteAudit(db(), app.web.service.boss, seededId, 'added');
    expect(requested.started).toBe(true);
  }, 120_000);

  it('audits the five pages of the site', async () => {
    await expect
      .poll(async () => (await latestAudit())?.status, { timeout: 600_000, interval: 1_000 })
      .toBe('completed');
    expect((await latestAudit())!.completedPages).toBe(5);
  }, 700_000);

  it('lists every page of the audit where the shared barrier fails, with the element', async () => {
    await page.goto(`/app/dashboard/domains/${siteHost}`);
    await page.getByRole('link', { name: 'Rules and pages' }).click();
    await page.getByRole('heading', { level: 1, name: `Rules and pages of ${siteHost}` }).waitFor();
    const rule = page.getByRole('article', { name: 'Image has no text alternative' });
    await rule.waitFor();
    await rule.getByText('Fails on 5 pages').waitFor();
    const pages = rule.getByRole('list', {
      name: 'Pages where “Image has no text alternative” fails',
    });
    const links = pages.getByRole('link').filter({ hasText: siteUrl });
    expect((await links.allTextContents()).sort()).toEqual(
      sitePaths.map((path) => `${siteUrl}${path}`).sort(),
    );
    await expect
      .poll(() => rule.getByText('brand-logo', { exact: false }).count())
      .toBeGreaterThanOrEqual(5);
    await rule.getByText('WCAG 1.1.1', { exact: false }).first().waitFor();

    // What axe-core tested per page: passed and not-applicable checks, not a conformance claim.
    const checks = page.getByRole('region', { name: 'What the engines tested on each page' });
    await checks.getByText('not that the page conforms', { exact: false }).waitFor();
    const summaries = checks.locator('summary');
    expect(await summaries.count()).toBe(5);
    expect(await summaries.first().textContent()).toMatch(
      /\d+ passed, \d+ not applicable \(axe-core\)/,
    );

    await screenshot(page, 'rule-pages');
    expect(await blockingAxeViolations(page)).toEqual([]);
    await page.setViewportSize({ width: 320, height: 640 });
    expect(await noHorizontalScroll(page)).toBeLessThanOrEqual(0);
    await page.setViewportSize({ width: 1280, height: 800 });
    expect(takePageErrors()).toEqual([]);
  });

  it('refuses a repository not written owner/name, then saves GitHub settings without showing the token', async () => {
    await page.goto('/app/dashboard/settings');
    await page.getByRole('link', { name: 'Integrations' }).click();
    const form = page.getByRole('region', { name: 'GitHub issues' });
    await form.getByLabel('Repository').fill('bakery');
    await form.getByRole('button', { name: 'Save GitHub settings' }).click();
    await form.getByRole('alert').getByText('owner/name', { exact: false }).waitFor();

    await form.getByLabel('Repository').fill('bakery/website');
    await form.getByLabel('Access token').fill(githubToken);
    await form.getByLabel('GitHub API address').fill(githubUrl);
    await form.getByRole('button', { name: 'Save GitHub settings' }).click();
    await form.getByRole('status').getByText('Saved.').waitFor();
    await form.getByText('A token is set.', { exact: false }).waitFor();
    expect(await form.getByLabel('Access token').inputValue()).toBe('');
    const settings = await (await page.request.get('/api/organisation/integrations')).text();
    expect(settings).not.toContain(githubToken);
    expect(JSON.parse(settings)).toMatchObject({
      githubRepo: 'bakery/website',
      githubTokenSet: true,
    });
    // The change is in the audit log, by its author, naming the token only as set.
    const log = await (
      await page.request.get('/api/organisation/audit-log?action=integrations.changed')
    ).text();
    expect(log).not.toContain(githubToken);
    expect(JSON.parse(log)).toMatchObject({
      entries: [
        {
          actor: owner,
          actionLabel: 'Integration settings changed',
          details: { githubRepo: 'bakery/website', githubToken: 'set', githubApiUrl: githubUrl },
        },
      ],
    });

    expect(await blockingAxeViolations(page)).toEqual([]);
    await page.setViewportSize({ width: 320, height: 640 });
    expect(await noHorizontalScroll(page)).toBeLessThanOrEqual(0);
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('sends a signed test event to the webhook and lists the delivery', async () => {
    await page.goto('/app/dashboard/settings/integrations');
    const webhook = page.getByRole('region', { name: 'Webhook' });
    await webhook.getByLabel('Webhook URL').fill(receiverUrl);
    await webhook.getByLabel('Signing secret').fill(webhookSecret);
    await webhook.getByRole('button', { name: 'Save webhook' }).click();
    await webhook.getByText('A secret is set.', { exact: false }).waitFor();
    await webhook.getByRole('button', { name: 'Send test' }).click();
    await webhook.getByText('delivered (204)').waitFor();
    await webhook.getByText('ping', { exact: false }).first().waitFor();
    expect(webhookVerified).toEqual([true]);
    expect(takePageErrors()).toEqual([]);
  });

  it('creates the GitHub issue with the pages, element and fix steps, and links to it', async () => {
    await page.goto(`/app/dashboard/domains/${siteHost}/rules`);
    const rule = page.getByRole('article', { name: 'Image has no text alternative' });
    await rule.getByRole('checkbox', { name: /^Choose the element on \/: / }).check();
    await page.getByText('1 issue chosen').waitFor();

    // The same choice as a Jira CSV, read back with a CSV parser.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Download Jira CSV' }).click(),
    ]);
    const csv = parse(await readFile((await download.path())!, 'utf8')) as string[][];
    expect(csv[0]!.slice(0, 4)).toEqual(['Summary', 'Issue Type', 'Priority', 'Description']);
    expect(csv).toHaveLength(2);
    expect(csv[1]!.slice(0, 3)).toEqual(['Image has no text alternative', 'Bug', 'Highest']);
    expect(csv[1]![3]).toContain(`${siteUrl}/contact`);

    await page.getByRole('button', { name: 'Create GitHub issues' }).click();
    const created = page.getByRole('status').getByRole('link', { name: '#42' });
    await created.waitFor();
    expect(await created.getAttribute('href')).toBe('https://github.com/bakery/website/issues/42');

    expect(githubReceived).toHaveLength(1);
    const sent = githubReceived[0]!;
    expect(sent).toMatchObject({
      method: 'POST',
      path: '/repos/bakery/website/issues',
      authorization: `Bearer ${githubToken}`,
    });
    const issue = JSON.parse(sent.body) as { title: string; body: string };
    expect(issue.title).toBe('Image has no text alternative');
    for (const path of sitePaths) expect(issue.body).toContain(`${siteUrl}${path}`);
    expect(issue.body).toMatch(/Selector: `[^`]*(brand-logo|img)[^`]*`/);
    expect(issue.body).toContain('<img class="brand-logo" src="/logo.png"');
    expect(issue.body).toContain(`1. ${ruleGuidance('23a2a8')!.fix[0]}`);
    expect(issue.body).toMatch(/\[screenshot\]\(http[^)]*\/api\/artifacts\//);

    // The link stays beside the element, and choosing it again sends nothing new.
    await rule.getByRole('link', { name: 'GitHub issue' }).first().waitFor();
    expect(await db().select().from(trackerLinks)).toHaveLength(1);
    await page.getByRole('button', { name: 'Create GitHub issues' }).click();
    await page.getByRole('status').getByText('Sent before as').waitFor();
    expect(githubReceived).toHaveLength(1);
    expect(takePageErrors()).toEqual([]);
  });

  it('sends an issue to GitHub from the Triage screen', async () => {
    await page.goto(`/app/dashboard/domains/${siteHost}/triage`);
    await page.getByRole('heading', { level: 1, name: `Triage of ${siteHost}` }).waitFor();
    const row = page
      .getByRole('listitem')
      .filter({ has: page.getByRole('heading', { name: 'Form field has no label', exact: true }) });
    await row.getByRole('button', { name: 'Send to GitHub Form field has no label' }).click();
    const created = row.getByRole('status').getByRole('link', { name: 'GitHub issue #43' });
    await created.waitFor();
    expect(await created.getAttribute('href')).toBe('https://github.com/bakery/website/issues/43');
    expect(githubReceived).toHaveLength(2);
    const issue = JSON.parse(githubReceived[1]!.body) as { title: string; body: string };
    expect(issue.title).toBe('Form field has no label');
    expect(issue.body).toContain(`${siteUrl}/contact`);
    expect(issue.body).not.toContain(`${siteUrl}/about`);
    expect(issue.body).toContain('<input type="text" id="message" name="message">');

    expect(await blockingAxeViolations(page)).toEqual([]);
    await page.setViewportSize({ width: 320, height: 640 });
    expect(await noHorizontalScroll(page)).toBeLessThanOrEqual(0);
    await page.setViewportSize({ width: 1280, height: 800 });
    expect(takePageErrors()).toEqual([]);
  });

  it("offers each issue's triage and GitHub on the report of a page of the monitored site", async () => {
    const [contact] = await db()
      .select({ id: pageScans.id })
      .from(pageScans)
      .where(
        and(
          eq(pageScans.auditSessionId, (await latestAudit())!.id),
          eq(pageScans.url, `${siteUrl}/contact`),
        ),
      );
    await page.goto(`/report/${contact!.id}`);
    await page
      .getByRole('heading', { level: 1, name: `Accessibility report for ${siteHost}` })
      .waitFor();
    const issues = page.getByRole('region', { name: 'Issues', exact: true });
    await issues.getByRole('button', { name: /Image has no text alternative/ }).click();

    // Sent from the rules screen before: the same link, nothing new at GitHub.
    await issues
      .getByRole('button', { name: 'Send to GitHub Image has no text alternative' })
      .click();
    const before = issues.getByRole('status').getByRole('link', { name: 'GitHub issue #42' });
    await before.waitFor();
    await issues.getByText('Sent before as', { exact: false }).waitFor();
    expect(githubReceived).toHaveLength(2);

    await issues.getByText('Open', { exact: true }).first().waitFor();
    await issues
      .getByRole('button', { name: 'Change triage of Image has no text alternative' })
      .click();
    const form = page.getByRole('form', { name: 'Triage of Image has no text alternative' });
    await form.getByRole('button', { name: 'Apply' }).click();
    const note = form.getByLabel('Why is it a false positive? (required)');
    const error = form.getByText('Say why this is a false positive');
    await error.waitFor();
    const describedBy = (await note.getAttribute('aria-describedby')) ?? '';
    expect(describedBy).toContain((await error.getAttribute('id')) ?? 'missing id');
    expect(await note.getAttribute('aria-invalid')).toBe('true');

    await note.fill('The logo is decorative here; the shop name is in the heading.');
    await form.getByRole('button', { name: 'Apply' }).click();
    await issues.getByRole('status').getByText('Marked as a false positive.').waitFor();
    await issues.getByText('False positive', { exact: true }).first().waitFor();
    const triage = (await (await page.request.get(`/api/domains/${siteHost}/triage`)).json()) as {
      issues: { title: string; state: string }[];
    };
    expect(triage.issues).toContainEqual(
      expect.objectContaining({ title: 'Image has no text alternative', state: 'false_positive' }),
    );

    expect(await blockingAxeViolations(page)).toEqual([]);
    await page.setViewportSize({ width: 320, height: 640 });
    expect(await noHorizontalScroll(page)).toBeLessThanOrEqual(0);
    await page.setViewportSize({ width: 1280, height: 800 });
    expect(takePageErrors()).toEqual([]);
  });

  it("posts a member's scan's new critical issue on a monitored page to the signed webhook", async () => {
    // The alert worker as the runtime starts it, with the webhook's side of a scan's alert job.
    const alerts = await startAlertWorkers({
      boss: app.web.service.boss,
      scanAlert: (scanId) =>
        notifyScanIssues(
          {
            db: db(),
            sealer: new SecretSealer(db(), undefined),
            publicUrl: 'https://conformly.example',
            allowPrivateTargets: true,
          },
          scanId,
        ),
      weeklyDigest: async () => undefined,
      pollingIntervalSeconds: 0.5,
    });
    onTestFinished(() => alerts.stop());
    contactButton = true;
    const delivered = webhookBodies.length;
    const scanId = await page.evaluate(async (url) => {
      const { csrfToken } = (await (await fetch('/api/csrf-token')).json()) as {
        csrfToken: string;
      };
      const response = await fetch('/api/scans', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-csrf-token': csrfToken },
        body: JSON.stringify({ url }),
      });
      return ((await response.json()) as { id: string }).id;
    }, `${siteUrl}/contact`);
    await expect
      .poll(() => webhookBodies.length, { timeout: 180_000, interval: 1_000 })
      .toBeGreaterThan(delivered);
    expect(webhookVerified.at(-1)).toBe(true);
    const event = JSON.parse(webhookBodies.at(-1)!) as {
      event: string;
      source: string;
      scanId: string;
      domain: string;
      issues: { title: string; impact: string; pageUrl: string; selector: string }[];
    };
    expect(event).toMatchObject({ event: 'issues.new', source: 'scan', scanId, domain: siteHost });
    // Only what this scan found that the page's audit did not: the unnamed button (a critical
    // failure, and a serious one for its size); not the logo or the field the audit knew.
    expect(event.issues).toContainEqual(
      expect.objectContaining({
        title: 'Button has no accessible name',
        impact: 'critical',
        pageUrl: `${siteUrl}/contact`,
      }),
    );
    for (const issue of event.issues) {
      expect(issue.selector).toMatch(/button/);
      expect(['critical', 'serious']).toContain(issue.impact);
    }
  }, 300_000);
});
