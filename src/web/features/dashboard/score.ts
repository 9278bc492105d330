import type { Trend } from '#contract/dashboard.js';
import type { ScoreTone } from '#contract/vocabulary.js';

/**
 * The dashboard's words and colours for scores, trends and dates. Labels, bands and date formats
 * are the one vocabulary's (`#contract/vocabulary.js`, ADR 0013), so a score reads the same here
 * as on the report, the status page and the documents.
 */
export {
  formatDate,
  formatDateTime,
  formatScore,
  scoreLabel,
  scoreTone,
} from '#contract/vocabulary.js';

/** Dark text on a light tint so each reaches 4.5:1; the label says it in words as well. */
export const toneClasses: Record<ScoreTone, string> = {
  good: 'bg-green-100 text-green-900 border-green-700',
  fair: 'bg-yellow-100 text-yellow-900 border-yellow-700',
  poor: 'bg-red-100 text-red-900 border-red-700',
  none: 'bg-slate-100 text-slate-900 border-slate-700',
};

/** The chart line and bar colours of the same bands (3:1 against white). */
export const toneStroke: Record<ScoreTone, string> = {
  good: '#15803d',
  fair: '#a16207',
  poor: '#b91c1c',
  none: '#4b5563',
};

export const trendWords: Record<Trend, string> = {
  up: 'Improving',
  down: 'Declining',
  stable: 'Stable',
};

/** "+8", "−3", "±0" points, for a change next to its trend. */
export function signedPoints(change: number | null): string {
  if (change === null) return '';
  if (change > 0) return `+${change}`;
  if (change < 0) return `−${Math.abs(change)}`;
  return '±0';
}
