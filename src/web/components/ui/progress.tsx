import * as ProgressPrimitive from '@radix-ui/react-progress';

export function Progress({ value, label }: { value: number; label: string }) {
  const clamped = Math.max(0, Math.min(100, value));
  return (
    <ProgressPrimitive.Root
      value={clamped}
      aria-label={label}
      className="relative h-3 w-full overflow-hidden rounded-full bg-slate-200"
    >
      <ProgressPrimitive.Indicator
        className="h-full bg-brand-600 transition-transform duration-500 motion-reduce:transition-none"
        style={{ transform: `translateX(-${100 - clamped}%)` }}
      />
    </ProgressPrimitive.Root>
  );
}
