import { ChevronDown } from 'lucide-react';
import type { Ref, SelectHTMLAttributes } from 'react';
import { cn } from '../../lib/cn';

/**
 * The browser's own select, styled like our inputs: every platform's keyboard, screen reader and
 * touch behaviour for free, for short fixed lists of options.
 */
export function NativeSelect({
  className,
  ref,
  children,
  ...props
}: SelectHTMLAttributes<HTMLSelectElement> & { ref?: Ref<HTMLSelectElement> }) {
  return (
    <div className="relative">
      <select
        ref={ref}
        className={cn(
          'h-10 w-full appearance-none rounded-md border border-slate-500 bg-white pr-9 pl-3 text-base text-slate-900 focus-visible:outline-3 focus-visible:outline-offset-1 focus-visible:outline-brand-600 aria-[invalid=true]:border-bad disabled:opacity-60',
          className,
        )}
        {...props}
      >
        {children}
      </select>
      <ChevronDown
        aria-hidden="true"
        className="pointer-events-none absolute top-1/2 right-3 h-4 w-4 -translate-y-1/2 text-slate-700"
      />
    </div>
  );
}
