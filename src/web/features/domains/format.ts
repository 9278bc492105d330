import { formatDate as formatVocabularyDate, scoreTone } from '#contract/vocabulary.js';

/** Dates as every screen writes them (contract vocabulary): the month spelled out. */
export const formatDate = (iso: string): string => formatVocabularyDate(iso);

/** The vocabulary's band colours as text on white (dark shades: readable). */
export function scoreColour(score: number): string {
  const tone = scoreTone(score);
  return tone === 'good' ? 'text-ok' : tone === 'fair' ? 'text-warn' : 'text-bad';
}
