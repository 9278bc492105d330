import { rollUpKeys, type RollUpScope } from './rule-key-tables.js';
import type { ElementPath, PathStep } from './element.js';
import { pathsAgree } from './element.js';

/** What a roll-up needs of one merged group: its key and the element paths its engines gave. */
export interface RollUpCandidate {
  key: string;
  paths: readonly (ElementPath | null)[];
  /** Tag names of the group's elements, from the engines' snippets. */
  tags: readonly string[];
}

/** The container a group of findings rolls up to, as a path and a CSS selector. */
export interface Container {
  path: ElementPath;
  selector: string;
}

/** Tags that are part of a component's items rather than the component itself. */
const itemTags = new Set(['li', 'dt', 'dd']);

function containerPath(path: ElementPath, scope: RollUpScope): ElementPath | null {
  const steps = path.steps;
  if (scope === 'table') {
    const at = steps.map((s) => s.tag).lastIndexOf('table');
    return at < 0 ? null : { steps: steps.slice(0, at + 1), anchored: path.anchored };
  }
  let end = steps.length - 1;
  if (end > 0 && itemTags.has(steps[end - 1]?.tag ?? '')) end -= 1;
  if (end < 1) return null;
  return { steps: steps.slice(0, end), anchored: path.anchored };
}

function stepCss(s: PathStep): string {
  if (s.id !== undefined) return `#${s.id.replace(/([^\w-])/g, '\\$1')}`;
  const tag = s.tag ?? '*';
  if (tag === 'html' || tag === 'head' || tag === 'body') return tag;
  if (s.typeIndex) return `${tag}:nth-of-type(${s.typeIndex})`;
  if (s.childIndex) return `${tag}:nth-child(${s.childIndex})`;
  return tag;
}

/** A CSS selector for a path, from its last id (if any) down. */
export function pathToCss(path: ElementPath): string {
  const lastId = path.steps.map((s) => s.id !== undefined).lastIndexOf(true);
  return path.steps.slice(Math.max(0, lastId)).map(stepCss).join(' > ');
}

/**
 * One problem is one issue: the cell-level findings of a table check roll up to their table,
 * per-target findings of the target-size check to the component holding the targets (the
 * targets' parent, or the list around their list items). Groups under a roll-up key whose
 * containers agree join; a container holding a single group leaves it as it was. Returns the
 * joined groups as index lists into `candidates`, each with its container (undefined: as is).
 */
export function rollUp(
  candidates: readonly RollUpCandidate[],
): { members: number[]; container?: Container }[] {
  const out: { members: number[]; container?: Container }[] = [];
  const pending: { index: number; key: string; container: ElementPath }[] = [];
  // A table check an engine reported on the table itself without a full path (axe's short
  // selectors): it joins the one table the other findings of its key roll up to, if only one.
  const tables: { index: number; key: string }[] = [];
  candidates.forEach((c, index) => {
    const scope = rollUpKeys[c.key];
    const full = c.paths.find((p): p is ElementPath => p !== null && !p.anchored) ?? null;
    const container = scope && full ? containerPath(full, scope) : null;
    if (container) pending.push({ index, key: c.key, container });
    else if (scope === 'table' && !full && c.tags.includes('table'))
      tables.push({ index, key: c.key });
    else out.push({ members: [index] });
  });
  const clusters: { key: string; container: ElementPath; members: number[] }[] = [];
  for (const p of pending) {
    const same = clusters.find(
      (c) =>
        c.key === p.key &&
        c.container.steps.length === p.container.steps.length &&
        pathsAgree(c.container, p.container),
    );
    if (same) same.members.push(p.index);
    else clusters.push({ key: p.key, container: p.container, members: [p.index] });
  }
  for (const t of tables) {
    const ofKey = clusters.filter((c) => c.key === t.key);
    if (ofKey.length === 1) ofKey[0]?.members.push(t.index);
    else out.push({ members: [t.index] });
  }
  for (const c of clusters) {
    out.push(
      c.members.length > 1
        ? { members: c.members, container: { path: c.container, selector: pathToCss(c.container) } }
        : { members: c.members },
    );
  }
  return out;
}
