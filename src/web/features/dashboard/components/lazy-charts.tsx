import { lazy, Suspense, type ComponentProps } from 'react';

/**
 * The charts with their library (recharts, the largest part of the dashboard's code) loaded
 * after the screen shows: until it arrives, each chart's box holds its place at its final size,
 * with the same name for screen readers, so nothing moves when the drawing appears.
 */
const charts = () => import('./charts');
const LoadedScoreHistoryChart = lazy(async () => ({
  default: (await charts()).ScoreHistoryChart,
}));
const LoadedBarsChart = lazy(async () => ({ default: (await charts()).BarsChart }));

type ScoreHistoryProps = ComponentProps<typeof LoadedScoreHistoryChart>;
type BarsProps = ComponentProps<typeof LoadedBarsChart>;

export function ScoreHistoryChart(props: ScoreHistoryProps) {
  return (
    <Suspense fallback={<div role="img" aria-label={props.label} className="h-72 w-full" />}>
      <LoadedScoreHistoryChart {...props} />
    </Suspense>
  );
}

export function BarsChart(props: BarsProps) {
  const height = Math.max(160, props.rows.length * 36 + 40);
  return (
    <Suspense fallback={<div role="img" aria-label={props.label} style={{ height }} />}>
      <LoadedBarsChart {...props} />
    </Suspense>
  );
}
