import { ArrowDownRight, ArrowRight, ArrowUpRight } from 'lucide-react';
import type { Trend } from '#contract/dashboard.js';
import { cn } from '../../../lib/cn';
import { formatScore } from '#contract/vocabulary.js';
import { scoreLabel, scoreTone, signedPoints, toneClasses, trendWords } from '../score';

/** A score as every screen writes it ("78/100 · Good") in its band's colour. */
export function ScoreBadge({ score, className }: { score: number | null; className?: string }) {
  if (score === null) return <span className={cn('text-slate-700', className)}>No score yet</span>;
  return (
    <span
      className={cn(
        'inline-flex items-center gap-1 rounded-full border px-2 py-0.5 text-sm font-bold whitespace-nowrap',
        toneClasses[scoreTone(score)],
        className,
      )}
    >
      {formatScore(score)}
      <span className="font-semibold">· {scoreLabel(score)}</span>
    </span>
  );
}

const trendIcon = { up: ArrowUpRight, down: ArrowDownRight, stable: ArrowRight };
const trendClass = {
  up: 'text-green-800',
  down: 'text-red-800',
  stable: 'text-slate-700',
};

/** Spec §4 trend in words (and an arrow), with the points it moved by. */
export function TrendBadge({ trend, change }: { trend: Trend; change?: number | null }) {
  const Icon = trendIcon[trend];
  const points = change === undefined ? '' : signedPoints(change);
  return (
    <span className={cn('inline-flex items-center gap-1 text-sm font-semibold', trendClass[trend])}>
      <Icon aria-hidden="true" className="h-4 w-4" />
      {trendWords[trend]}
      {points && <span className="font-normal">({points})</span>}
    </span>
  );
}
