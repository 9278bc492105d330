import { scoreLabel } from '#contract/vocabulary.js';
import { cn } from '../../lib/cn';
import { scoreToneClass } from './score-tone';

/**
 * A score's label in its band's colours, the same on every screen (contract vocabulary): "Fair"
 * for a 60. Before a first score it reads `pending`.
 */
export function ScoreLabelChip({
  score,
  pending = 'Not scored yet',
  className,
}: {
  score: number | null;
  pending?: string;
  className?: string;
}) {
  return (
    <span
      data-testid="score-label"
      className={cn(
        'inline-block rounded-full border px-3 py-1 text-sm font-semibold',
        scoreToneClass(score),
        className,
      )}
    >
      {score === null ? pending : scoreLabel(score)}
    </span>
  );
}
