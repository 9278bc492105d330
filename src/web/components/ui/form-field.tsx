import { useId, type ReactNode } from 'react';
import { Label } from './label';

/**
 * A labelled control with its error message tied to it (aria-describedby, aria-invalid).
 * `children` receives the ids the control must carry.
 */
export function FormField({
  label,
  error,
  hint,
  children,
}: {
  label: ReactNode;
  error?: string | undefined;
  hint?: ReactNode;
  children: (ids: {
    id: string;
    'aria-describedby': string | undefined;
    'aria-invalid': boolean;
  }) => ReactNode;
}) {
  const id = useId();
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const describedBy = [hint ? hintId : '', error ? errorId : ''].filter(Boolean).join(' ');
  return (
    <div className="grid gap-1.5">
      <Label htmlFor={id}>{label}</Label>
      {children({ id, 'aria-describedby': describedBy || undefined, 'aria-invalid': !!error })}
      {hint && (
        <div id={hintId} className="text-sm text-slate-700">
          {hint}
        </div>
      )}
      {error && (
        <p id={errorId} className="text-sm font-medium text-bad">
          {error}
        </p>
      )}
    </div>
  );
}
