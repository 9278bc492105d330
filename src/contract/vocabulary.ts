import { defaultEngineIds, engineIds } from './engine-ids.js';
import type { EngineId } from './finding.js';
import type { ScoreLabel } from './page-scan.js';

/**
 * One vocabulary for every screen and document that speaks about a score, a date or the standard
 * (docs/decisions/0013-one-vocabulary-and-site-score.md): the server's answers, the web app, the
 * HTML/PDF/Word documents and the badge all import it, so a 60 is "60/100 · Fair" everywhere.
 * Only built-ins (Intl) besides the engine ids and types: server, web and reports can all load it.
 */

/**
 * The standard our documents and screens report against. The engines run WCAG 2.0, 2.1 and 2.2
 * A/AA rules, but rules exist for only 3 of the 6 success criteria WCAG 2.2 added at A/AA (2.4.11
 * Focus Not Obscured, 2.5.7 Dragging Movements, 2.5.8 Target Size; none for 3.2.6, 3.3.7,
 * 3.3.8), while every automatable 2.1 A/AA criterion has rules: "WCAG 2.1 AA" is what the rule
 * tags cover; the 2.2 checks are named as extras, never as 2.2 coverage.
 */
export const wcagStandard = {
  version: '2.1',
  level: 'AA',
  /** Screens: "WCAG 2.1 AA". */
  short: 'WCAG 2.1 AA',
  /** Documents: "WCAG 2.1 Level AA". */
  long: 'WCAG 2.1 Level AA',
  /** What else the engines check, said where the standard is explained. */
  extras: 'plus the WCAG 2.2 checks for target size, dragging and focus not obscured',
} as const;

/** How a score band looks: `good` (green), `fair` (amber), `poor` (red); `none` before a score. */
export type ScoreTone = 'good' | 'fair' | 'poor' | 'none';

export interface ScoreBand {
  label: ScoreLabel;
  /** The lowest score in the band. */
  min: number;
  tone: ScoreTone;
}

/**
 * The score bands, best first: the spec's scan labels (public-area §9 and dashboard-area §9 agree
 * on Excellent 90+, Good 75+, Fair 60+, else Needs Work). The public audit's 90/70 "Compliance"
 * bands and the status page's "At Risk" are not used (ADR 0013).
 */
export const scoreBands: readonly ScoreBand[] = [
  { label: 'Excellent', min: 90, tone: 'good' },
  { label: 'Good', min: 75, tone: 'good' },
  { label: 'Fair', min: 60, tone: 'fair' },
  { label: 'Needs Work', min: 0, tone: 'poor' },
];

export function scoreBand(score: number): ScoreBand {
  return scoreBands.find((band) => score >= band.min) ?? scoreBands[scoreBands.length - 1]!;
}

export function scoreLabel(score: number): ScoreLabel {
  return scoreBand(score).label;
}

export function scoreTone(score: number | null): ScoreTone {
  return score === null ? 'none' : scoreBand(score).tone;
}

/**
 * Colours of each tone, for documents and the badge (the web app maps tones to its own classes):
 * `solid` carries white text at 4.5:1 or more; `text` on `tint` is 7:1 or more.
 */
export const toneColours: Readonly<
  Record<ScoreTone, { solid: string; text: string; tint: string }>
> = {
  good: { solid: '#15803d', text: '#14532d', tint: '#dcfce7' },
  fair: { solid: '#b45309', text: '#78350f', tint: '#fef3c7' },
  poor: { solid: '#b91c1c', text: '#7f1d1d', tint: '#fee2e2' },
  none: { solid: '#4b5563', text: '#1f2937', tint: '#f3f4f6' },
};

/** A score as it is written everywhere: "60/100" (never "60%"); "–" before there is one. */
export function formatScore(score: number | null | undefined): string {
  return score === null || score === undefined ? '–' : `${score}/100`;
}

/** "60/100 · Fair": the score and its label, the way every screen and document states them. */
export function formatScoreWithLabel(score: number | null | undefined): string {
  return score === null || score === undefined ? '–' : `${score}/100 · ${scoreLabel(score)}`;
}

const dateOptions: Intl.DateTimeFormatOptions = { year: 'numeric', month: 'long', day: 'numeric' };

/** Documents are read by anyone, anywhere: one fixed locale and UTC, so a file reads the same. */
export const documentLocale = 'en-US';

/**
 * One formatter per kind and locale, made on first use: building an `Intl.DateTimeFormat` costs
 * far more than formatting with one (a list of dates on a throttled phone spent ~55 ms building
 * them), and a formatter is immutable, so one serves every call.
 */
const formatters = new Map<string, Intl.DateTimeFormat>();
function dateFormatter(
  kind: string,
  locale: string | undefined,
  options: Intl.DateTimeFormatOptions,
): Intl.DateTimeFormat {
  const key = `${kind} ${locale ?? ''}`;
  let formatter = formatters.get(key);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat(locale, options);
    // A badge's language comes from its address: a bounded cache, whatever visitors ask for.
    if (formatters.size < 64) formatters.set(key, formatter);
  }
  return formatter;
}

const monthNames = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
] as const;

/**
 * The reader's locale when it is US English, the one most readers have, which is written here
 * without Intl: a page's first `Intl.DateTimeFormat` loads the browser's locale and time-zone
 * data, 30-130 ms of a page load on a fast computer and four times that on a phone. Any other
 * locale goes through Intl.
 */
function isUsEnglish(locale: string | undefined): boolean {
  const tag = locale ?? (globalThis as { navigator?: { language?: string } }).navigator?.language;
  return tag === 'en-US' || tag === 'en';
}

/** "November 24, 2026", as `Intl.DateTimeFormat('en-US', dateOptions)` writes it. */
function usDate(year: number, month: number, day: number): string {
  return `${monthNames[month]} ${day}, ${year}`;
}

function toDate(value: Date | string | null | undefined): Date | undefined {
  if (value === null || value === undefined) return undefined;
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/**
 * A date on a screen: the month spelled out in the reader's locale and time zone ("November 24,
 * 2026", "24 November 2026"), never an ambiguous 24/11 form; "–" for none. `locale` is for tests.
 */
export function formatDate(value: Date | string | null | undefined, locale?: string): string {
  const date = toDate(value);
  if (!date) return '–';
  if (isUsEnglish(locale)) return usDate(date.getFullYear(), date.getMonth(), date.getDate());
  return dateFormatter('date', locale, dateOptions).format(date);
}

/** A date and time on a screen, the same way, with hours and minutes. */
export function formatDateTime(value: Date | string | null | undefined, locale?: string): string {
  const date = toDate(value);
  if (!date) return '–';
  if (isUsEnglish(locale)) {
    const hours = date.getHours();
    const minutes = String(date.getMinutes()).padStart(2, '0');
    const clock = `${hours % 12 === 0 ? 12 : hours % 12}:${minutes} ${hours < 12 ? 'AM' : 'PM'}`;
    return `${usDate(date.getFullYear(), date.getMonth(), date.getDate())} at ${clock}`;
  }
  return dateFormatter('date-time', locale, {
    ...dateOptions,
    hour: 'numeric',
    minute: '2-digit',
  }).format(date);
}

/**
 * A date in a document (HTML report, statement PDF, VPAT, badge): fixed locale, UTC. A badge
 * asked for in another language passes its own.
 */
export function formatDocumentDate(
  value: Date | string | null | undefined,
  locale: string = documentLocale,
): string {
  const date = toDate(value);
  if (!date) return '–';
  if (locale === documentLocale)
    return usDate(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate());
  return dateFormatter('document', locale, { ...dateOptions, timeZone: 'UTC' }).format(date);
}

/** The engines by the names users know them by (raw ids appear only in details lines). */
export const engineNames = {
  axe: 'axe-core',
  pa11y: 'Pa11y (HTML_CodeSniffer)',
  ibm: 'IBM Equal Access',
  checks: 'Conformly link and presentation checks',
  keyboard: 'Conformly keyboard walk',
  behaviour: 'Conformly behaviour checks',
} as const;

const numberWords = ['no', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'];

/**
 * "five engines": how many engines ran, in words, so no screen, document or e-mail states a count
 * of its own. Without ids, the engines a scan runs by default (the registry's defaults).
 */
export function enginesInWords(ids: readonly EngineId[] = defaultEngineIds): string {
  const n = new Set(ids).size;
  return `${numberWords[n] ?? n} engine${n === 1 ? '' : 's'}`;
}

/**
 * "a", "a and b", "a, b, and c": as `Intl.ListFormat('en', { type: 'conjunction' })` writes a
 * list, without loading Intl's list data on a page's first render.
 */
export function englishList(items: readonly string[]): string {
  if (items.length <= 2) return items.join(' and ');
  return `${items.slice(0, -1).join(', ')}, and ${items.at(-1)}`;
}

/**
 * The engines by name, in run order, as one list ("axe-core, …, and Conformly keyboard walk");
 * `unbranded` leaves the maker's name off the own engines, for white-label documents.
 */
export function engineList(
  ids: readonly EngineId[] = defaultEngineIds,
  options: { unbranded?: boolean } = {},
): string {
  const ordered = engineIds.filter((id) => ids.includes(id));
  const names = ordered.map((id) =>
    options.unbranded ? engineNames[id].replace(/^Conformly /, '') : engineNames[id],
  );
  return englishList(names);
}

/**
 * The mean of page scores, rounded half up; null when no page has a score yet. A domain's
 * standing (docs/scoring.md §6, ADR 0013) takes it over the pages its latest site audit
 * completed, or before any site audit over the latest scan of each page.
 */
export function siteScoreOf(pageScores: readonly (number | null)[]): number | null {
  const scores = pageScores.filter((score): score is number => score !== null);
  if (scores.length === 0) return null;
  return Math.round(scores.reduce((sum, score) => sum + score, 0) / scores.length);
}
