import { scoreTone, type ScoreTone } from '#contract/vocabulary.js';

/** The web app's classes for each score tone of the vocabulary (text on tint at 7:1 or more). */
export const toneClasses: Record<ScoreTone, string> = {
  good: 'bg-emerald-100 text-emerald-900 border-emerald-700',
  fair: 'bg-amber-100 text-amber-900 border-amber-700',
  poor: 'bg-red-100 text-red-900 border-red-700',
  none: 'bg-slate-100 text-slate-900 border-slate-600',
};

export const scoreToneClass = (score: number | null) => toneClasses[scoreTone(score)];
