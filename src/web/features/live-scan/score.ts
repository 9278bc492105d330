/** Spec §9: scan labels are Excellent at 90 or more, Good at 75, Fair at 60, else Needs Work. */
export type ScoreLabel = 'Excellent' | 'Good' | 'Fair' | 'Needs Work';

export function scoreLabel(score: number): ScoreLabel {
  if (score >= 90) return 'Excellent';
  if (score >= 75) return 'Good';
  if (score >= 60) return 'Fair';
  return 'Needs Work';
}

/** Spec §9: the terminal demo's score colour changes at 90 and 70. */
export type TerminalScoreTone = 'high' | 'middle' | 'low';

export function terminalScoreTone(score: number): TerminalScoreTone {
  if (score >= 90) return 'high';
  if (score >= 70) return 'middle';
  return 'low';
}
