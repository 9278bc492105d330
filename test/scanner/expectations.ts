/**
 * Expected findings of the fixture site (test/fixtures/site/<page>.expected.json), written in
 * terms that do not depend on our rule keys: a WCAG criterion, the element, the kind of finding
 * and the engines that must at least have seen it. Elements are compared in the live page, so an
 * engine may name the element however it likes (axe "#hero", IBM an XPath turned CSS).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'puppeteer-core';
import type { EngineId, FindingKind, Impact, PageScanResult } from '#contract/index.js';
import type { ScanOptions } from '#scanner/types.js';

export const fixtureSiteRoot = join(import.meta.dirname, '../fixtures/site');

export interface ExpectedFinding {
  wcag: string;
  /** CSS selector of the element; a finding matches when it names any element this selects. */
  selector: string;
  kind: FindingKind;
  enginesAtLeast: EngineId[];
}

/** Something that must not be reported on this element (a false positive). */
export interface AbsentFinding {
  selector: string;
  kind: FindingKind;
  wcag?: string;
}

export interface PageExpectations {
  page: string;
  about: string;
  scanOptions?: Pick<ScanOptions, 'waitForSelector' | 'waitMs' | 'engineTimeoutMs'>;
  expected: ExpectedFinding[];
  absent?: AbsentFinding[];
  noViolationsOfImpact?: Impact[];
  minScore?: number;
  /** Engines this page is built to break; every other engine must run cleanly. */
  engineErrors?: EngineId[];
}

export function loadExpectations(): PageExpectations[] {
  return readdirSync(fixtureSiteRoot)
    .filter((name) => name.endsWith('.expected.json'))
    .sort()
    .map((name) => ({
      page: name.replace('.expected.json', '.html'),
      ...(JSON.parse(readFileSync(join(fixtureSiteRoot, name), 'utf8')) as Omit<
        PageExpectations,
        'page'
      >),
    }));
}

interface Located {
  kind: FindingKind;
  wcag: string[];
  engines: EngineId[];
  /** Per engine: does that engine's finding name one of the elements in question? */
  findingSelectors: { engine: EngineId; selector: string }[];
  issueSelector: string;
}

/**
 * For each wanted selector, the issues that touch one of its elements (by the issue's own
 * selector or any of its findings'), resolved in `page`, which shows the scanned document.
 */
export async function issuesOnElements(
  page: Page,
  result: PageScanResult,
  wanted: string[],
): Promise<Map<string, Located[]>> {
  const issues = result.issues.map<Located>((issue) => ({
    kind: issue.kind,
    wcag: issue.wcag,
    engines: issue.engines,
    issueSelector: issue.selector,
    findingSelectors: issue.findings.map((f) => ({ engine: f.engine, selector: f.selector })),
  }));
  const matches = await page.evaluate(
    (wantedSelectors: string[], found: { issue: string; findings: string[] }[]) =>
      wantedSelectors.map((wantedSelector) => {
        const targets = new Set(document.querySelectorAll(wantedSelector));
        return found.map((entry) =>
          [entry.issue, ...entry.findings].map((selector) => {
            if (!selector) return false;
            try {
              const element = document.querySelector(selector);
              return element !== null && targets.has(element);
            } catch {
              return false;
            }
          }),
        );
      }),
    wanted,
    issues.map((issue) => ({
      issue: issue.issueSelector,
      findings: issue.findingSelectors.map((f) => f.selector),
    })),
  );
  const out = new Map<string, Located[]>();
  wanted.forEach((selector, w) => {
    out.set(
      selector,
      issues.flatMap((issue, i) => {
        const [onIssue, ...onFindings] = matches[w]![i]!;
        if (!onIssue && !onFindings.some(Boolean)) return [];
        // The engines whose own finding points at the element have seen it; an issue that
        // matched only by its merged selector stands for all its engines.
        const seenBy = issue.findingSelectors.filter((_, f) => onFindings[f]).map((f) => f.engine);
        return [{ ...issue, engines: seenBy.length > 0 ? seenBy : issue.engines }];
      }),
    );
  });
  return out;
}
