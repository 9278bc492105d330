import { lazy, Suspense, useEffect, useRef, useState, type ComponentProps } from 'react';

/**
 * The bar charts with their library (recharts, the largest part of the dashboard's code) loaded
 * when a chart's box comes near the screen: a phone that opens the analytics page does not
 * download, parse and run recharts (about a second of a throttled phone's CPU) for a chart its
 * reader has not scrolled to. Until it arrives, each chart's box holds its place at its final
 * size, with the same name for screen readers, so nothing moves when the drawing appears.
 */
const LoadedBarsChart = lazy(async () => ({ default: (await import('./charts')).BarsChart }));

type BarsProps = ComponentProps<typeof LoadedBarsChart>;

/** True once the element is near the viewport (at once where there is no IntersectionObserver). */
function useNearScreen<T extends Element>() {
  const ref = useRef<T>(null);
  const [near, setNear] = useState(() => typeof IntersectionObserver === 'undefined');
  useEffect(() => {
    const element = ref.current;
    if (near || !element) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) setNear(true);
      },
      // Within 300 px of the screen: a reader scrolling towards the chart starts its download
      // about a flick ahead, while a phone showing the top of a domain page loads none of it.
      { rootMargin: '300px 0px' },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [near]);
  return { ref, near };
}

export function BarsChart(props: BarsProps) {
  const { ref, near } = useNearScreen<HTMLDivElement>();
  const height = Math.max(160, props.rows.length * 36 + 40);
  const placeholder = <div ref={ref} role="img" aria-label={props.label} style={{ height }} />;
  if (!near) return placeholder;
  return (
    <Suspense fallback={placeholder}>
      <LoadedBarsChart {...props} />
    </Suspense>
  );
}
