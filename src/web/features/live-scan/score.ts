import { scoreLabel, scoreTone, type ScoreTone } from '#contract/vocabulary.js';
import type { ScoreLabel } from '#contract/page-scan.js';

/** The labels and bands are the contract vocabulary's (ADR 0008), shared by every screen. */
export { scoreLabel, type ScoreLabel };

/** The terminal demo's three score colours follow the vocabulary's bands. */
export type TerminalScoreTone = 'high' | 'middle' | 'low';

const terminalTones: Record<ScoreTone, TerminalScoreTone> = {
  good: 'high',
  fair: 'middle',
  poor: 'low',
  none: 'low',
};

export function terminalScoreTone(score: number): TerminalScoreTone {
  return terminalTones[scoreTone(score)];
}
