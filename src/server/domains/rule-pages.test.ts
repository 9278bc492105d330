import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Impact } from '#contract/index.js';
import type { Database } from '#db/client.js';
import { auditSessions, domains, issueTriage, issues, pageScans, scans } from '#db/schema/index.js';
import { seedDomain, seedUser } from '../../../test/support/dashboard-seed.js';
import { openTestPglite } from '../../../test/support/db.js';
import { NotFoundError } from '../http-errors.js';
import { readRulePages } from './rule-pages.js';

/**
 * The rule-to-pages view read straight from stored site audits: rules by our title with every
 * page and element, a trend over audits, false positives left out, and the checks axe recorded
 * per page (passed, not applicable, or not recorded for older scans).
 */

let database: Database;
const db = () => database.db;
let orgId = '';
let domainId = '';
const site = 'shop.example';

beforeAll(async () => {
  database = await openTestPglite();
  orgId = await seedUser(db(), { email: 'rules-owner@example.com' });
  await seedDomain(db(), orgId, { domain: site, index: 1 });
  domainId = (await db().select().from(domains).where(eq(domains.domain, site)))[0]!.id;
}, 120_000);
afterAll(() => database?.close());

interface SeedElement {
  rule: '23a2a8' | 'afw4f7';
  selector: string;
  impact: Impact;
}

async function seedAudit(
  completedAt: Date,
  pages: { path: string; elements: SeedElement[]; raw?: unknown }[],
): Promise<string> {
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
      totalPages: pages.length,
      completedPages: pages.length,
      createdAt: new Date(completedAt.getTime() - 60_000),
      completedAt,
    })
    .returning({ id: auditSessions.id });
  for (const [position, page] of pages.entries()) {
    const id = randomUUID();
    const url = `https://${site}${page.path}`;
    await db()
      .insert(pageScans)
      .values({ id, auditSessionId: audit!.id, position, url, status: 'completed' });
    await db()
      .insert(scans)
      .values({
        id,
        userId: orgId,
        url,
        domain: site,
        origin: 'monitoring',
        status: 'completed',
        rawOutput: (page.raw ?? null) as never,
      });
    if (page.elements.length === 0) continue;
    await db()
      .insert(issues)
      .values(
        page.elements.map((element) => ({
          scanId: id,
          issueKey: `${element.rule}:${page.path}:${element.selector}`,
          title: element.rule === '23a2a8' ? 'Images must have alternative text' : 'Contrast',
          description: 'stored description',
          rule: element.rule === '23a2a8' ? 'image-alt' : 'color-contrast',
          ruleKey: element.rule,
          impact: element.impact,
          kind: 'violation' as const,
          confidence: 'confirmed' as const,
          wcag: element.rule === '23a2a8' ? ['1.1.1'] : ['1.4.3'],
          selector: element.selector,
          html: `<img src="${element.selector}.png">`,
          source: 'axe' as const,
          engines: ['axe' as const, 'ibm' as const],
          rules: { axe: ['image-alt'] },
        })),
      );
  }
  return audit!.id;
}

const logo: SeedElement = { rule: '23a2a8', selector: 'img.logo', impact: 'critical' };

const axeRaw = {
  axe: {
    violations: [],
    incomplete: [],
    passes: [
      {
        id: 'html-has-lang',
        help: '<html> element must have a lang attribute',
        tags: ['wcag2a', 'wcag311'],
      },
    ],
    inapplicable: [
      { id: 'video-caption', help: '<video> elements must have captions', tags: ['wcag122'] },
    ],
    error: null,
  },
};

describe('the rule-to-pages view', () => {
  let olderId = '';
  let latestId = '';

  beforeAll(async () => {
    olderId = await seedAudit(new Date('2026-11-01T10:00:00Z'), [
      { path: '/', elements: [logo] },
      { path: '/about', elements: [logo] },
      { path: '/shop', elements: [] },
    ]);
    latestId = await seedAudit(new Date('2026-11-08T10:00:00Z'), [
      {
        path: '/',
        elements: [logo, { rule: '23a2a8', selector: 'img.hero', impact: 'critical' }],
        raw: axeRaw,
      },
      { path: '/about', elements: [logo] },
      {
        path: '/shop',
        elements: [logo, { rule: 'afw4f7', selector: 'p.fine-print', impact: 'serious' }],
        raw: { axe: { ...axeRaw.axe, inapplicable: undefined } },
      },
      { path: '/contact', elements: [logo] },
      { path: '/blog', elements: [logo] },
    ]);
  });

  it('names each failing rule by our title with every page and element it fails on', async () => {
    const view = await readRulePages(db(), orgId, site);
    expect(view.auditId).toBe(latestId);
    expect(view.pagesAudited).toBe(5);
    expect(view.rules.map((rule) => rule.title)).toEqual([
      'Image has no text alternative',
      'Text has too little contrast',
    ]);
    const images = view.rules[0]!;
    expect(images).toMatchObject({
      ruleKey: '23a2a8',
      impact: 'critical',
      wcag: ['1.1.1'],
      engines: ['axe', 'ibm'],
      pageCount: 5,
      elementCount: 6,
    });
    expect(images.pages.map((page) => new URL(page.url).pathname)).toEqual([
      '/',
      '/about',
      '/shop',
      '/contact',
      '/blog',
    ]);
    expect(images.pages[0]!.elements.map((element) => element.selector)).toEqual([
      'img.logo',
      'img.hero',
    ]);
    expect(images.pages[0]!.elements[0]!.html).toBe('<img src="img.logo.png">');
  });

  it('counts each rule in every recent audit, oldest first', async () => {
    const view = await readRulePages(db(), orgId, site);
    const images = view.rules.find((rule) => rule.ruleKey === '23a2a8')!;
    expect(images.trend).toEqual([
      expect.objectContaining({ auditId: olderId, elements: 2, pages: 2 }),
      expect.objectContaining({ auditId: latestId, elements: 6, pages: 5 }),
    ]);
    const contrast = view.rules.find((rule) => rule.ruleKey === 'afw4f7')!;
    expect(contrast.trend.map((point) => point.elements)).toEqual([0, 1]);
  });

  it('lists per page what axe-core tested: passed, not applicable, or not recorded', async () => {
    const view = await readRulePages(db(), orgId, site);
    const home = view.pageChecks[0]!;
    expect(home).toMatchObject({
      engine: 'axe-core',
      passed: [{ id: 'html-has-lang', wcag: ['3.1.1'] }],
      notApplicable: [{ id: 'video-caption', description: '<video> elements must have captions' }],
    });
    expect(view.pageChecks[2]!.notApplicable).toBeNull();
    expect(view.pageChecks[1]).toMatchObject({ passed: [], notApplicable: null });
  });

  it('leaves an element marked a false positive out of the rule and its trend', async () => {
    await db()
      .insert(issueTriage)
      .values({ domainId, issueKey: '23a2a8:/:img.hero', state: 'false_positive' });
    const view = await readRulePages(db(), orgId, site);
    const images = view.rules.find((rule) => rule.ruleKey === '23a2a8')!;
    expect(images.elementCount).toBe(5);
    expect(images.trend.at(-1)!.elements).toBe(5);
    await db().delete(issueTriage).where(eq(issueTriage.domainId, domainId));
  });

  it("answers 404 for another organisation's domain and an empty view before any audit", async () => {
    const other = await seedUser(db(), { email: 'rules-other@example.com' });
    await expect(readRulePages(db(), other, site)).rejects.toBeInstanceOf(NotFoundError);
    await expect(readRulePages(db(), orgId, 'not a domain')).rejects.toBeInstanceOf(NotFoundError);
    await seedDomain(db(), other, { domain: 'new.example', index: 1 });
    expect(await readRulePages(db(), other, 'new.example')).toMatchObject({
      auditId: null,
      rules: [],
      pageChecks: [],
    });
  });
});
