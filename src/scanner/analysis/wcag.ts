import type { WcagLevel } from '#contract/index.js';
import wcagTable from '../data/wcag.json' with { type: 'json' };

interface ScEntry {
  level: string;
  handle: string;
  url: string;
}
const table = wcagTable as Record<string, ScEntry>;
const levelRank: Record<WcagLevel, number> = { A: 1, AA: 2, AAA: 3 };

/** True for a WCAG 2.x success criterion number such as "1.4.3". */
export function isSuccessCriterion(sc: string): boolean {
  return sc in table;
}

/** W3C's level of a success criterion (never an engine's own idea of it). */
export function levelOf(sc: string): WcagLevel | null {
  const level = table[sc]?.level;
  return level === 'A' || level === 'AA' || level === 'AAA' ? level : null;
}

/** The strictest (lowest) level among the criteria, null when none is a known criterion. */
export function strictestLevel(scs: readonly string[]): WcagLevel | null {
  let best: WcagLevel | null = null;
  for (const sc of scs) {
    const level = levelOf(sc);
    if (level && (best === null || levelRank[level] < levelRank[best])) best = level;
  }
  return best;
}

export function understandingUrl(sc: string): string {
  return table[sc]?.url ?? '';
}

export function scHandle(sc: string): string {
  return table[sc]?.handle ?? sc;
}

/** axe SC tags: `wcag1412` -> 1.4.12. Level tags such as `wcag2aa` do not match. */
export function scFromAxeTags(tags: readonly string[]): string[] {
  const out: string[] = [];
  for (const tag of tags) {
    const m = /^wcag(\d)(\d)(\d+)$/.exec(tag);
    if (m) {
      const sc = `${m[1]}.${m[2]}.${m[3]}`;
      if (isSuccessCriterion(sc) && !out.includes(sc)) out.push(sc);
    }
  }
  return out;
}

/** Sorts criteria numerically ("1.4.3" before "1.4.10") and drops duplicates. */
export function sortCriteria(scs: Iterable<string>): string[] {
  return [...new Set(scs)].sort((a, b) => {
    const pa = a.split('.').map(Number);
    const pb = b.split('.').map(Number);
    for (let i = 0; i < 3; i++) {
      const d = (pa[i] ?? 0) - (pb[i] ?? 0);
      if (d !== 0) return d;
    }
    return 0;
  });
}
