import { Pause, Play } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { cn } from '../../../lib/cn';
import type { LiveScanTheme } from '../themes';

/** Spec §2: screenshots rotate every 3-4 s. */
export const screenshotRotationMs = 3500;

const prefersReducedMotion = () =>
  typeof window.matchMedia === 'function' &&
  window.matchMedia('(prefers-reduced-motion: reduce)').matches;

/**
 * The scan's screenshots (one full-page shot unless a caller asked for more), one at a time, rotating on their own. Content that moves by itself for
 * more than five seconds needs a way to stop it (WCAG 2.2.2), so there is a pause button, and a
 * visitor who asked for reduced motion starts paused.
 */
export function ScreenshotCarousel({
  addresses,
  pageUrl,
  theme,
}: {
  addresses: string[];
  pageUrl: string;
  theme: LiveScanTheme;
}) {
  const { look } = theme;
  const [index, setIndex] = useState(0);
  const [paused, setPaused] = useState(prefersReducedMotion);
  const count = addresses.length;
  useEffect(() => {
    if (paused || count < 2) return;
    const timer = setInterval(() => setIndex((i) => (i + 1) % count), screenshotRotationMs);
    return () => clearInterval(timer);
  }, [paused, count]);
  if (count === 0) return null;
  const shown = index % count;
  return (
    <figure className="grid gap-3">
      {/* The scan's shot is the whole page at half scale: show its top at the card's width, so a
          long page reads as a page rather than a thin strip. */}
      <div className="max-h-[28rem] overflow-hidden rounded-md border border-slate-400 bg-white">
        <img
          src={addresses[shown]}
          alt={`Screenshot ${shown + 1} of ${count} of ${pageUrl}`}
          className="block w-full"
        />
      </div>
      <figcaption
        className={cn('flex flex-wrap items-center justify-between gap-2 text-sm', look.muted)}
      >
        <span>
          Screenshot {shown + 1} of {count}
        </span>
        {count > 1 && (
          <Button
            type="button"
            size="sm"
            className={cn(look.secondary, look.focus)}
            onClick={() => setPaused((p) => !p)}
          >
            {paused ? (
              <Play aria-hidden="true" className="h-4 w-4" />
            ) : (
              <Pause aria-hidden="true" className="h-4 w-4" />
            )}
            {paused ? 'Play screenshots' : 'Pause screenshots'}
          </Button>
        )}
      </figcaption>
    </figure>
  );
}
