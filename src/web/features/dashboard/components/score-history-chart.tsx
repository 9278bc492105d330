import { curveMonotoneX, line } from 'd3-shape';
import { useLayoutEffect, useRef, useState, type PointerEvent, type RefObject } from 'react';

/**
 * A score over time as a line on a 0-100 scale: one point per scan or audit, dates along the
 * bottom. Drawn as plain SVG (the curve by d3-shape, as recharts draws its "monotone" line)
 * rather than with the charting library: a domain page's phone load spent about 400 ms of a
 * throttled CPU rendering this one chart through recharts, near the top of the page where it is
 * drawn at once. A picture with a name for screen readers (`role="img"`): the data is in the
 * table beside every chart, which is what a screen reader or keyboard user reads instead; a
 * pointer over it shows the nearest point's date and score.
 */
export interface ScorePoint {
  date: string;
  score: number;
}

const height = 288;
const margin = { top: 8, right: 16, bottom: 30, left: 40 };
const yTicks = [0, 25, 50, 75, 100];
/** About the width of a 12 px date label per character, to keep labels from overlapping. */
const labelCharWidth = 6.5;
const axisColour = '#334155';
const gridColour = '#cbd5e1';
const lineColour = '#1d4ed8';

export function ScoreHistoryChart({ points, label }: { points: ScorePoint[]; label: string }) {
  const box = useRef<HTMLDivElement>(null);
  const width = useWidth(box);
  const [hovered, setHovered] = useState<number | null>(null);
  const plotWidth = Math.max(0, width - margin.left - margin.right);
  const plotHeight = height - margin.top - margin.bottom;
  // Points spread edge to edge, `step` apart; a single point sits in the middle.
  const step = pointStep(points.length, plotWidth);
  const x = (index: number) => margin.left + (points.length > 1 ? index * step : plotWidth / 2);
  const y = (score: number) => margin.top + plotHeight - (score / 100) * plotHeight;
  const path =
    line<ScorePoint>()
      .x((_, index) => x(index))
      .y((point) => y(point.score))
      .curve(curveMonotoneX)(points) ?? '';
  const labelled = labelledIndexes(points, plotWidth);

  const onPointerMove = (event: PointerEvent<SVGSVGElement>) => {
    if (points.length === 0 || step === 0) return;
    const left = event.currentTarget.getBoundingClientRect().left;
    const index = Math.round((event.clientX - left - margin.left) / step);
    setHovered(Math.min(points.length - 1, Math.max(0, index)));
  };
  const shown = hovered === null ? undefined : points[hovered];
  const shownX = hovered === null ? 0 : x(hovered);

  return (
    <div ref={box} role="img" aria-label={label} className="relative h-72 w-full">
      {width > 0 && (
        <svg
          width={width}
          height={height}
          aria-hidden="true"
          focusable="false"
          onPointerMove={onPointerMove}
          onPointerLeave={() => setHovered(null)}
        >
          <g stroke={gridColour} strokeDasharray="3 3">
            {yTicks.map((tick) => (
              <line
                key={tick}
                x1={margin.left}
                x2={margin.left + plotWidth}
                y1={y(tick)}
                y2={y(tick)}
              />
            ))}
            {points.map((point, index) => (
              <line
                key={index}
                x1={x(index)}
                x2={x(index)}
                y1={margin.top}
                y2={margin.top + plotHeight}
              />
            ))}
          </g>
          <g stroke={axisColour}>
            <line x1={margin.left} x2={margin.left} y1={margin.top} y2={margin.top + plotHeight} />
            <line
              x1={margin.left}
              x2={margin.left + plotWidth}
              y1={margin.top + plotHeight}
              y2={margin.top + plotHeight}
            />
          </g>
          <g fill={axisColour} fontSize={12}>
            {yTicks.map((tick) => (
              <text
                key={tick}
                x={margin.left - 8}
                y={y(tick)}
                textAnchor="end"
                dominantBaseline="middle"
              >
                {tick}
              </text>
            ))}
            {labelled.map((index) => (
              <text
                key={index}
                x={x(index)}
                y={margin.top + plotHeight + 18}
                textAnchor={anchorFor(index, points.length)}
              >
                {points[index]!.date}
              </text>
            ))}
          </g>
          {shown && (
            <line
              x1={shownX}
              x2={shownX}
              y1={margin.top}
              y2={margin.top + plotHeight}
              stroke="#94a3b8"
            />
          )}
          <path d={path} fill="none" stroke={lineColour} strokeWidth={2} />
          {points.map((point, index) => (
            <circle
              key={index}
              cx={x(index)}
              cy={y(point.score)}
              r={index === hovered ? 5 : 3}
              fill={index === hovered ? lineColour : '#fff'}
              stroke={lineColour}
              strokeWidth={2}
            />
          ))}
        </svg>
      )}
      {shown && (
        <div
          aria-hidden="true"
          className="pointer-events-none absolute top-2 w-44 whitespace-nowrap rounded border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 shadow"
          style={{ left: tooltipLeft(shownX, width) }}
        >
          <p>{shown.date}</p>
          <p className="text-blue-700">Score: {shown.score}</p>
        </div>
      )}
    </div>
  );
}

/**
 * The box's width, whenever it changes: a ResizeObserver reports it first right after the box is
 * laid out, before that frame is painted, so the drawing appears with the box.
 */
function useWidth(box: RefObject<HTMLDivElement | null>): number {
  const [width, setWidth] = useState(0);
  useLayoutEffect(() => {
    const element = box.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => setWidth(element.clientWidth));
    observer.observe(element);
    return () => observer.disconnect();
  }, [box]);
  return width;
}

/**
 * Which points get a date under them: as many as fit without overlapping, evenly spaced, the
 * latest always among them.
 */
export function labelledIndexes(points: ScorePoint[], plotWidth: number): number[] {
  if (points.length === 0) return [];
  const widest = Math.max(...points.map((point) => point.date.length)) * labelCharWidth + 12;
  // Labels `every` points apart sit `every * step` px apart, which must hold the widest.
  const step = pointStep(points.length, plotWidth);
  const every = step > 0 ? Math.max(1, Math.ceil(widest / step)) : points.length;
  const indexes: number[] = [];
  for (let index = points.length - 1; index >= 0; index -= every) indexes.unshift(index);
  return indexes;
}

/** The distance between neighbouring points (the whole width for a single point). */
function pointStep(count: number, plotWidth: number): number {
  return count > 1 ? plotWidth / (count - 1) : plotWidth;
}

/** The first and last labels stay inside the chart. */
function anchorFor(index: number, count: number): 'start' | 'middle' | 'end' {
  if (count === 1) return 'middle';
  if (index === 0) return 'start';
  if (index === count - 1) return 'end';
  return 'middle';
}

/** The tooltip's width (`w-44`), so it can be kept inside the chart. */
const tooltipWidth = 176;

/** The tooltip beside the point, on the side with room for it, never past the chart's edges. */
export function tooltipLeft(pointX: number, width: number): number {
  const right = pointX + 12;
  if (right + tooltipWidth <= width) return right;
  return Math.max(0, Math.min(pointX - 12 - tooltipWidth, width - tooltipWidth));
}
