import type { Trend } from '#contract/dashboard.js';

/** Spec §9 labels: Excellent 90+, Good 75+, Fair 60+, else Needs Work. */
export function scoreLabel(score: number): 'Excellent' | 'Good' | 'Fair' | 'Needs Work' {
  if (score >= 90) return 'Excellent';
  if (score >= 75) return 'Good';
  if (score >= 60) return 'Fair';
  return 'Needs Work';
}

/**
 * Spec §9 score bar colours: green at 80+, yellow at 60+, else red; dark text on a light tint so
 * each reaches 4.5:1, and the label says it in words for those who do not see colour.
 */
export function scoreTone(score: number): 'good' | 'fair' | 'bad' {
  if (score >= 80) return 'good';
  if (score >= 60) return 'fair';
  return 'bad';
}

export const toneClasses = {
  good: 'bg-green-100 text-green-900 border-green-700',
  fair: 'bg-yellow-100 text-yellow-900 border-yellow-700',
  bad: 'bg-red-100 text-red-900 border-red-700',
} as const;

/** The chart line and bar colours of the same bands (3:1 against white). */
export const toneStroke = { good: '#15803d', fair: '#a16207', bad: '#b91c1c' } as const;

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

export const dateOnly = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeZone: 'UTC' });
export const dateTime = new Intl.DateTimeFormat('en-GB', {
  dateStyle: 'medium',
  timeStyle: 'short',
});
export const formatDate = (iso: string) => dateOnly.format(new Date(iso));
