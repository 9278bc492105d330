import { formatScore, scoreTone, toneColours } from '#contract/vocabulary.js';

/** A ring filled to the score; the number is text, the ring only decoration. */
export function ScoreRing({
  score,
  label = 'site score',
}: {
  score: number | null;
  label?: string;
}) {
  const value = Math.max(0, Math.min(100, score ?? 0));
  const radius = 52;
  const circumference = 2 * Math.PI * radius;
  const colour = toneColours[scoreTone(score)].solid;
  return (
    <div className="relative h-36 w-36">
      <svg viewBox="0 0 120 120" className="h-full w-full -rotate-90" aria-hidden="true">
        <circle cx="60" cy="60" r={radius} fill="none" stroke="#e2e8f0" strokeWidth="12" />
        <circle
          cx="60"
          cy="60"
          r={radius}
          fill="none"
          stroke={colour}
          strokeWidth="12"
          strokeLinecap="round"
          strokeDasharray={circumference}
          strokeDashoffset={circumference * (1 - value / 100)}
        />
      </svg>
      <p className="absolute inset-0 flex flex-col items-center justify-center">
        <span className="text-2xl font-extrabold" data-testid="site-score">
          {formatScore(score)}
        </span>
        <span className="text-xs text-slate-700">{label}</span>
      </p>
    </div>
  );
}
