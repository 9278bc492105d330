import type { FailingRule, PageChecks, RulePagesView, TestedCheck } from '#contract/index.js';
import { issueTitle } from '#contract/rule-guidance/index.js';
import type { AppDb } from '#db/client.js';
import {
  countViolationsByRule,
  listCompletedPages,
  listFinishedSiteAudits,
  listTrackerLinks,
  listViolations,
  readAxeChecks,
} from '#db/stores/rule-pages.js';
import { findMonitoringSettings } from '#db/stores/site-audit-reads.js';
import { scFromAxeTags, sortCriteria } from '#scanner';
import { NotFoundError } from '../http-errors.js';
import { normalizeDomain } from './domain.js';

/**
 * The rule-to-pages view of a monitored domain (issue 27, item 2), read from its latest finished
 * site audit: every rule failing there by our title, with each page and element, and its trend
 * over the domain's recent audits; and per page, the checks axe-core ran that passed or had
 * nothing to test. Another organisation's domain is a 404, as on every domain route.
 */

/** How many audits the trend covers, the latest included. */
export const ruleTrendAudits = 10;

const impactRank = { critical: 0, serious: 1, moderate: 2, minor: 3 } as const;

export async function readRulePages(
  db: AppDb,
  organisationId: string,
  domainParam: string,
): Promise<RulePagesView> {
  let name: string;
  try {
    name = normalizeDomain(domainParam);
  } catch {
    throw new NotFoundError('Domain not found');
  }
  const domain = await findMonitoringSettings(db, organisationId, name);
  if (!domain) throw new NotFoundError('Domain not found');

  const audits = await listFinishedSiteAudits(db, domain.id, ruleTrendAudits);
  const latest = audits[0];
  if (!latest) {
    return {
      domain: name,
      auditId: null,
      completedAt: null,
      pagesAudited: 0,
      rules: [],
      pageChecks: [],
    };
  }
  const pages = await listCompletedPages(db, latest.id);
  const pageIds = pages.map((page) => page.id);
  const [violations, counts, checks, links] = await Promise.all([
    listViolations(db, domain.id, pageIds),
    countViolationsByRule(
      db,
      domain.id,
      audits.map((audit) => audit.id),
    ),
    readAxeChecks(db, pageIds),
    listTrackerLinks(db, domain.id),
  ]);
  const linkOf = new Map(links.map((link) => [link.issueKey, link.url]));

  const oldestFirst = [...audits].reverse();
  const byRule = new Map<string, FailingRule>();
  const urlOf = new Map(pages.map((page) => [page.id, page.url]));
  for (const row of violations) {
    let rule = byRule.get(row.ruleKey);
    if (!rule) {
      rule = {
        ruleKey: row.ruleKey,
        title: issueTitle(row),
        wcag: [],
        impact: row.impact,
        engines: [],
        pageCount: 0,
        elementCount: 0,
        pages: [],
        trend: oldestFirst.map((audit) => {
          const counted = counts.find(
            (count) => count.auditId === audit.id && count.ruleKey === row.ruleKey,
          );
          return {
            auditId: audit.id,
            completedAt: audit.completedAt?.toISOString() ?? null,
            elements: counted?.elements ?? 0,
            pages: counted?.pages ?? 0,
          };
        }),
      };
      byRule.set(row.ruleKey, rule);
    }
    // Engines disagree on impact now and then: the rule shows its worst.
    if (impactRank[row.impact] < impactRank[rule.impact]) rule.impact = row.impact;
    rule.wcag = sortCriteria([...rule.wcag, ...row.wcag]);
    rule.engines = [...new Set([...rule.engines, ...row.engines])].sort();
    let page = rule.pages.find((entry) => entry.scanId === row.pageId);
    if (!page) {
      page = { url: urlOf.get(row.pageId) ?? '', scanId: row.pageId, elements: [] };
      rule.pages.push(page);
    }
    page.elements.push({
      issueKey: row.issueKey,
      selector: row.selector,
      html: row.html,
      trackerUrl: linkOf.get(row.issueKey) ?? null,
    });
    rule.elementCount += 1;
  }
  const rules = [...byRule.values()];
  for (const rule of rules) {
    rule.pageCount = rule.pages.length;
    rule.pages.sort((a, b) => pageIds.indexOf(a.scanId) - pageIds.indexOf(b.scanId));
  }
  rules.sort(
    (a, b) =>
      impactRank[a.impact] - impactRank[b.impact] ||
      b.pageCount - a.pageCount ||
      b.elementCount - a.elementCount ||
      a.title.localeCompare(b.title),
  );

  const pageChecks: PageChecks[] = pages.map((page) => {
    const stored = checks.find((row) => row.id === page.id);
    return {
      url: page.url,
      scanId: page.id,
      engine: 'axe-core',
      passed: testedChecks(stored?.passes) ?? [],
      notApplicable: testedChecks(stored?.inapplicable),
    };
  });

  return {
    domain: name,
    auditId: latest.id,
    completedAt: latest.completedAt?.toISOString() ?? null,
    pagesAudited: pages.length,
    rules,
    pageChecks,
  };
}

/** axe's rule results as stored (rules without nodes); null when the list was not recorded. */
function testedChecks(value: unknown): TestedCheck[] | null {
  if (!Array.isArray(value)) return null;
  const checks: TestedCheck[] = [];
  for (const item of value) {
    if (!item || typeof item !== 'object') continue;
    const rule = item as { id?: unknown; help?: unknown; description?: unknown; tags?: unknown };
    if (typeof rule.id !== 'string') continue;
    const tags = Array.isArray(rule.tags)
      ? rule.tags.filter((tag): tag is string => typeof tag === 'string')
      : [];
    checks.push({
      id: rule.id,
      description:
        typeof rule.help === 'string'
          ? rule.help
          : typeof rule.description === 'string'
            ? rule.description
            : rule.id,
      wcag: sortCriteria(scFromAxeTags(tags)),
    });
  }
  return checks.sort((a, b) => a.description.localeCompare(b.description));
}
