import { createHash } from 'node:crypto';
import type { EngineId, Finding, FindingKind, Impact, Issue } from '#contract/index.js';
import { engineIds, impacts, isManualCheck } from '#contract/index.js';
import { ruleTitle } from '#contract/rule-guidance/index.js';
import { ownCheckDefinition } from '../engines/own-engine.js';
import { classify } from './classify.js';
import type { ElementPath } from './element.js';
import type { OpeningTag } from './element.js';
import {
  openingTagKey,
  openingTagsAgree,
  parseCssPath,
  parseOpeningTag,
  parseXPath,
  pathsAgree,
} from './element.js';
import { axeRule } from '../engines/axe/rules.js';
import { rollUp, type Container } from './roll-up.js';
import { isPageLevelKey, ruleKeyTitle } from './rule-keys.js';
import { sortCriteria, strictestLevel } from './wcag.js';

const kindRank: Record<FindingKind, number> = {
  violation: 0,
  'needs-review': 1,
  'best-practice': 2,
};
const impactRank = (i: Impact): number => impacts.indexOf(i);
/** Engines in the contract's order; one the contract does not know yet comes last. */
const engineRank = (e: EngineId): number => {
  const rank = engineIds.indexOf(e);
  return rank < 0 ? engineIds.length : rank;
};

function keysOf(f: Finding): string[] {
  const keys = f.extras.ruleKeys;
  return Array.isArray(keys) && keys.length > 0 ? (keys as string[]) : [f.ruleKey];
}

/**
 * The spec's dedupe by selector plus rule, within one engine: IBM and HTML_CodeSniffer can report
 * one rule twice on one element (different reasons or techniques). The most severe kind is kept.
 */
export function dedupeFindings(findings: readonly Finding[]): Finding[] {
  const byId = new Map<string, Finding>();
  for (const f of findings) {
    const id = `${f.engine}\u0000${f.ruleId}\u0000${f.selector}`;
    const seen = byId.get(id);
    if (
      !seen ||
      kindRank[f.kind] < kindRank[seen.kind] ||
      (f.kind === seen.kind && impactRank(f.impact) < impactRank(seen.impact))
    ) {
      byId.set(id, f);
    }
  }
  const kept = new Set(byId.values());
  return findings.filter((f) => kept.has(f));
}

interface Located {
  finding: Finding;
  keys: string[];
  pageLevel: boolean;
  path: ElementPath | null;
  tag: OpeningTag | null;
  /** Position among this engine rule's findings with the same opening tag (document order). */
  ordinal: number;
  mergeable: boolean;
}

function elementPath(f: Finding): ElementPath | null {
  const x = f.extras;
  if (f.engine === 'ibm' && typeof x.domPath === 'string') return parseXPath(x.domPath);
  if (f.engine === 'axe') {
    if (typeof x.xpath === 'string') return parseXPath(x.xpath);
    if (typeof x.ancestry === 'string') return parseCssPath(x.ancestry, 'only-child');
    return parseCssPath(f.selector, 'unknown');
  }
  if (f.engine === 'pa11y') return parseCssPath(f.selector, 'only-of-type');
  return null;
}

function locate(findings: readonly Finding[]): Located[] {
  const ordinals = new Map<string, string[]>();
  return findings.map((finding) => {
    const keys = keysOf(finding);
    const tag = parseOpeningTag(finding.html);
    const bucket = `${finding.engine}\u0000${finding.ruleId}\u0000${openingTagKey(tag)}`;
    const seen = ordinals.get(bucket) ?? [];
    let ordinal = seen.indexOf(finding.selector);
    if (ordinal < 0) {
      ordinal = seen.length;
      seen.push(finding.selector);
      ordinals.set(bucket, seen);
    }
    return {
      finding,
      keys,
      pageLevel: isPageLevelKey(keys[0] ?? finding.ruleKey) || finding.selector === '',
      path: elementPath(finding),
      tag,
      ordinal,
      mergeable: finding.extras.inFrame !== true,
    };
  });
}

/** Whether two findings of different engines are about the same element. */
function sameElement(a: Located, b: Located): boolean {
  if (!a.mergeable || !b.mergeable) return false;
  if (!openingTagsAgree(a.tag, b.tag)) return false;
  if (a.path && b.path) return pathsAgree(a.path, b.path);
  // Without two paths, only equal opening tags at the same position in each engine's list.
  return a.tag !== null && b.tag !== null && a.ordinal === b.ordinal;
}

class Groups {
  private parent: number[];
  private members: Map<number, Located[]>;
  constructor(private items: Located[]) {
    this.parent = items.map((_, i) => i);
    this.members = new Map(items.map((it, i) => [i, [it]]));
  }
  find(i: number): number {
    let r = i;
    while (this.parent[r] !== r) r = this.parent[r] ?? r;
    return r;
  }
  /** Joins two groups unless that would put two different elements of one engine together. */
  union(i: number, j: number): void {
    const a = this.find(i);
    const b = this.find(j);
    if (a === b) return;
    const ma = this.members.get(a) ?? [];
    const mb = this.members.get(b) ?? [];
    for (const x of ma) {
      for (const y of mb) {
        if (x.finding.engine === y.finding.engine && x.finding.selector !== y.finding.selector) {
          if (!(x.pageLevel && y.pageLevel)) return;
        }
      }
    }
    this.parent[b] = a;
    this.members.set(a, [...ma, ...mb]);
    this.members.delete(b);
  }
  groups(): Located[][] {
    return [...this.members.values()];
  }
}

/** Chooses the key the group shares, preferring the order of the first engine that found it. */
function issueKey(group: Located[]): string {
  const sorted = [...group].sort(
    (a, b) => engineRank(a.finding.engine) - engineRank(b.finding.engine),
  );
  const first = sorted[0];
  if (!first) return '';
  const shared = first.keys.find((k) => group.every((g) => g.keys.includes(k)));
  return shared ?? first.keys[0] ?? first.finding.ruleKey;
}

/** Stable element identity for the issue id: a full path when an engine gave one. */
function canonicalElement(group: Located[], pageLevel: boolean): string {
  if (pageLevel) return 'page';
  const byPreference = (l: Located): number => {
    const x = l.finding.extras;
    if (l.finding.engine === 'ibm') return 0;
    if (typeof x.xpath === 'string') return 1;
    if (l.finding.engine === 'pa11y') return 2;
    return 3;
  };
  const best = [...group].sort((a, b) => byPreference(a) - byPreference(b))[0];
  if (!best) return '';
  return typeof best.finding.extras.domPath === 'string'
    ? best.finding.extras.domPath
    : typeof best.finding.extras.xpath === 'string'
      ? best.finding.extras.xpath
      : best.finding.selector;
}

export function issueId(ruleKey: string, element: string): string {
  return createHash('sha256').update(`${ruleKey}\u0000${element}`).digest('hex').slice(0, 16);
}

function buildIssue(group: Located[], container?: Container): Issue {
  const findings = group
    .map((g) => g.finding)
    .sort((a, b) => engineRank(a.engine) - engineRank(b.engine));
  const key = issueKey(group);
  const pageLevel = group.every((g) => g.pageLevel);
  const { kind, confidence } = classify(findings, key);
  const engines = [...new Set(findings.map((f) => f.engine))];
  const rules: Partial<Record<EngineId, string[]>> = {};
  for (const f of findings) {
    const list = (rules[f.engine] ??= []);
    if (!list.includes(f.ruleId)) list.push(f.ruleId);
  }
  const wcag = sortCriteria(findings.flatMap((f) => f.wcag));
  const impact = findings
    .map((f) => f.impact)
    .reduce((a, b) => (impactRank(b) < impactRank(a) ? b : a), 'minor' as Impact);
  const axe = findings.find((f) => f.engine === 'axe');
  const pa11y = findings.find((f) => f.engine === 'pa11y');
  const ibm = findings.find((f) => f.engine === 'ibm');
  const axeHelp = axe ? (axeRule(axe.ruleId)?.help ?? axe.message) : undefined;
  const own = ownCheckDefinition(key);
  // Our own title states the failure in plain words; the engines' names are the fallback.
  const title =
    ruleTitle(key) ?? axeHelp ?? ruleKeyTitle(key) ?? own?.title ?? findings[0]?.message ?? key;
  const description =
    (axe && typeof axe.extras.description === 'string' ? axe.extras.description : undefined) ??
    ibm?.message ??
    pa11y?.message ??
    own?.description ??
    title;
  // Engines without a place in the preferences above fill in after them.
  const others = findings.filter((f) => !['axe', 'pa11y', 'ibm'].includes(f.engine));
  const selector = container?.selector ?? (axe ?? pa11y ?? ibm ?? others[0])?.selector ?? '';
  const html = [axe, pa11y, ibm, ...others].find((f) => f && f.html !== '')?.html ?? '';
  const helpUrl = [axe, ibm, pa11y, ...others].find((f) => f && f.helpUrl !== '')?.helpUrl ?? '';
  return {
    id: issueId(key, container ? container.selector : canonicalElement(group, pageLevel)),
    ruleKey: key,
    title,
    description,
    wcag,
    level: strictestLevel(wcag),
    impact,
    kind,
    confidence,
    selector,
    html,
    helpUrl,
    engines,
    rules,
    findings,
    ...(isManualCheck({ kind, ruleKey: key }) ? { manualCheck: true } : {}),
  };
}

/**
 * Merges findings of all engines into issues: one issue per check (rule key) per element, or per
 * check for page-level keys. Findings merge when they share a rule key and point at the same
 * element (see element.ts); then a table check's cells roll up to their table and a target-size
 * check's targets to their component (roll-up.ts).
 */
export function mergeFindings(input: readonly Finding[]): Issue[] {
  const located = locate(dedupeFindings(input));
  const groups = new Groups(located);
  const byKey = new Map<string, number[]>();
  located.forEach((l, i) => {
    for (const k of l.keys) {
      const list = byKey.get(k) ?? [];
      list.push(i);
      byKey.set(k, list);
    }
  });
  for (const members of byKey.values()) {
    for (let x = 0; x < members.length; x++) {
      for (let y = x + 1; y < members.length; y++) {
        const i = members[x] ?? 0;
        const j = members[y] ?? 0;
        const a = located[i];
        const b = located[j];
        if (!a || !b) continue;
        let same: boolean;
        if (a.pageLevel || b.pageLevel) same = a.pageLevel && b.pageLevel;
        else if (a.finding.engine === b.finding.engine)
          same = a.finding.selector === b.finding.selector;
        else same = sameElement(a, b);
        if (same) groups.union(i, j);
      }
    }
  }
  const merged = groups.groups();
  const rolled = rollUp(
    merged.map((g) => ({
      key: issueKey(g),
      paths: g.map((l) => l.path),
      tags: g.flatMap((l) => (l.tag ? [l.tag.tag] : [])),
    })),
  );
  return rolled
    .map(({ members, container }) =>
      buildIssue(
        members.flatMap((m) => merged[m] ?? []),
        container,
      ),
    )
    .sort(
      (a, b) =>
        kindRank[a.kind] - kindRank[b.kind] ||
        impactRank(a.impact) - impactRank(b.impact) ||
        b.engines.length - a.engines.length ||
        a.title.localeCompare(b.title) ||
        a.selector.localeCompare(b.selector) ||
        a.id.localeCompare(b.id),
    );
}
