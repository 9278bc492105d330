import { useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { cn } from '../lib/cn';

/**
 * A box that scrolls sideways when its content is wider than the screen (a table on a phone).
 * While it scrolls it takes focus, named as a region, so a keyboard can scroll it (axe
 * scrollable-region-focusable); while it fits it is a plain box, not a Tab stop for nothing.
 */
export function ScrollRegion({
  label,
  className,
  children,
}: {
  label: string;
  className?: string;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const [overflows, setOverflows] = useState(false);
  useLayoutEffect(() => {
    const box = ref.current;
    if (!box) return;
    const measure = () =>
      setOverflows(
        box.scrollWidth > box.clientWidth + 1 || box.scrollHeight > box.clientHeight + 1,
      );
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(box);
    for (const child of Array.from(box.children)) observer.observe(child);
    return () => observer.disconnect();
  }, []);
  return (
    <div
      ref={ref}
      className={cn(
        'overflow-x-auto focus-visible:outline-3 focus-visible:outline-brand-600',
        className,
      )}
      {...(overflows ? { tabIndex: 0, role: 'region', 'aria-label': label } : {})}
    >
      {children}
    </div>
  );
}
