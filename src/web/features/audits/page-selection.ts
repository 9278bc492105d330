import type { DiscoveredPage, DiscoveryResult, LinkLocation } from '#contract/discovery.js';
import { maxAuditPages, maxAuditPagesMessage } from '#contract/audit.js';

/**
 * The pages a person picks after discovery (spec §2 smart scan and smart discovery, §5): the
 * discovered pages plus custom ones, each selected or not. Pure, so the screens only render it.
 */

export interface CandidatePage {
  url: string;
  /** What to call the page: the discovered text, or 'Custom Page'. */
  text: string;
  linkText: string;
  /** Discovery's ranking in points; none for a custom page. */
  score: number | null;
  reasons: string[];
  location: LinkLocation;
  custom: boolean;
  selected: boolean;
}

export interface SelectionRules {
  /**
   * Smart discovery: the first page (the homepage) is always selected and cannot be removed.
   * Smart scan: every page can be unchecked.
   */
  lockHomepage: boolean;
}

const fromDiscovered = (page: DiscoveredPage, selected: boolean): CandidatePage => ({
  url: page.url,
  text: page.text,
  linkText: page.linkText,
  score: page.score,
  reasons: page.reasons,
  location: page.location,
  custom: false,
  selected,
});

/** The discovered pages, homepage first, with the first `preselect` of them selected. */
export function candidatesFrom(
  result: Pick<DiscoveryResult, 'discovered'>,
  preselect = Number.POSITIVE_INFINITY,
): CandidatePage[] {
  return result.discovered.map((page, index) => fromDiscovered(page, index < preselect));
}

const isHomepage = (list: readonly CandidatePage[], url: string) => list[0]?.url === url;

export function toggleCandidate(
  list: readonly CandidatePage[],
  url: string,
  rules: SelectionRules,
): CandidatePage[] {
  if (rules.lockHomepage && isHomepage(list, url)) return [...list];
  return list.map((page) => (page.url === url ? { ...page, selected: !page.selected } : page));
}

export function removeCandidate(
  list: readonly CandidatePage[],
  url: string,
  rules: SelectionRules,
): CandidatePage[] {
  if (rules.lockHomepage && isHomepage(list, url)) return [...list];
  return list.filter((page) => page.url !== url);
}

/** Selects every page, or none (the homepage stays selected where it is locked). */
export function selectAll(
  list: readonly CandidatePage[],
  selected: boolean,
  rules: SelectionRules,
): CandidatePage[] {
  return list.map((page, index) => ({
    ...page,
    selected: selected || (rules.lockHomepage && index === 0),
  }));
}

export const selectedUrls = (list: readonly CandidatePage[]): string[] =>
  list.filter((page) => page.selected).map((page) => page.url);

/**
 * A custom entry as an absolute address on the homepage's site: a path gets a leading slash when
 * it has none and takes the homepage's protocol and host; a full http(s) address is kept. Empty
 * entries give null.
 */
export function resolveCustomPath(input: string, homeUrl: string): string | null {
  const entry = input.trim();
  if (!entry) return null;
  if (/^https?:\/\//i.test(entry)) {
    try {
      return new URL(entry).href;
    } catch {
      return null;
    }
  }
  const home = new URL(homeUrl);
  const path = entry.startsWith('/') ? entry : `/${entry}`;
  // Joined as text, not resolved: '//other.example/x' must stay a path on the homepage's host.
  try {
    return new URL(`${home.protocol}//${home.host}${path}`).href;
  } catch {
    return null;
  }
}

export type AddOutcome =
  | { kind: 'added'; url: string }
  | { kind: 'already-listed'; url: string }
  | { kind: 'empty' }
  | { kind: 'invalid' };

/** Adds a custom page, selected; one already listed is selected instead of listed twice. */
export function addCustomPage(
  list: readonly CandidatePage[],
  input: string,
  homeUrl: string,
): { list: CandidatePage[]; outcome: AddOutcome } {
  if (!input.trim()) return { list: [...list], outcome: { kind: 'empty' } };
  const url = resolveCustomPath(input, homeUrl);
  if (!url) return { list: [...list], outcome: { kind: 'invalid' } };
  if (list.some((page) => page.url === url)) {
    return {
      list: list.map((page) => (page.url === url ? { ...page, selected: true } : page)),
      outcome: { kind: 'already-listed', url },
    };
  }
  const custom: CandidatePage = {
    url,
    text: 'Custom Page',
    linkText: '',
    score: null,
    reasons: [],
    location: 'other',
    custom: true,
    selected: true,
  };
  return { list: [...list, custom], outcome: { kind: 'added', url } };
}

/** Why the selected pages cannot be scanned now, if they cannot (spec §5, §9). */
export function selectionProblem(selectedCount: number): string | null {
  if (selectedCount === 0) return 'Select at least one page to scan.';
  if (selectedCount > maxAuditPages) {
    const extra = selectedCount - maxAuditPages;
    return `${maxAuditPagesMessage}. ${selectedCount} pages are selected: deselect ${extra} ${extra === 1 ? 'page' : 'pages'}.`;
  }
  return null;
}
