import * as ProgressPrimitive from '@radix-ui/react-progress';
import { cn } from '../../../lib/cn';

/**
 * A progress bar in the theme's colours (the shared ui/progress is the light one). It has a role,
 * a name and a value for assistive technology; it is not a live region, so the percentage is not
 * read out at every poll.
 */
export function ScanProgressBar({
  value,
  label,
  track,
  bar,
  className,
}: {
  value: number;
  label: string;
  track: string;
  bar: string;
  className?: string;
}) {
  const clamped = Math.max(0, Math.min(100, value));
  return (
    <ProgressPrimitive.Root
      value={clamped}
      aria-label={label}
      className={cn('relative h-3 w-full overflow-hidden rounded-full', track, className)}
    >
      <ProgressPrimitive.Indicator
        className={cn(
          'h-full transition-transform duration-500 motion-reduce:transition-none',
          bar,
        )}
        style={{ transform: `translateX(-${100 - clamped}%)` }}
      />
    </ProgressPrimitive.Root>
  );
}
