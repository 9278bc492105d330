import { useId, type FormEvent, type ReactNode, type Ref } from 'react';
import { cn } from '../lib/cn';
import { Button, type ButtonProps } from './ui/button';
import { Input } from './ui/input';
import { Label } from './ui/label';

/** Class names a screen's theme lays over the form's parts. */
export interface UrlScanFormLook {
  form?: string;
  label?: string;
  input?: string;
  button?: string;
}

export interface UrlScanFormProps {
  /** The field's visible label, e.g. 'Website URL'. */
  label: string;
  value: string;
  onValueChange: (value: string) => void;
  /** Called with the trimmed address; never while busy or (unless `submitWhenBlank`) blank. */
  onSubmit: (url: string) => void;
  /** The submit button's content: its text (which may say the form is busy) and any icon. */
  submitContent: ReactNode;
  /** The form is working: submitting is off. */
  busy?: boolean;
  /** How the field is locked while busy: greyed out, or kept readable and focusable. */
  lockField?: 'disabled' | 'readOnly';
  /** Everything is off (another part of the screen is working). */
  disabled?: boolean;
  /** The screen validates on submit itself, so the button stays on even for a blank field. */
  submitWhenBlank?: boolean;
  /** The field's id; one is made up when the screen does not need a fixed one. */
  id?: string;
  placeholder?: string;
  name?: string;
  /** Names the form as a landmark when a screen has more than one. */
  formLabel?: string;
  inputRef?: Ref<HTMLInputElement>;
  onBlur?: () => void;
  /** Marks the field invalid for assistive technology. An `error` does so too. */
  invalid?: boolean;
  /** A failure shown in red under the field and announced at once. */
  error?: string | null;
  /** A hint under the field, announced politely when it changes (e.g. the address's validity). */
  hint?: { text: ReactNode; className?: string };
  /** Shown inside the field's right edge (e.g. a valid/invalid mark). */
  adornment?: ReactNode;
  /** More buttons beside the submit button (e.g. Cancel). */
  actions?: ReactNode;
  buttonSize?: ButtonProps['size'];
  look?: UrlScanFormLook;
}

/**
 * The "enter an address and go" form of every scan screen (scan, raw results, raw analysis,
 * discovery, the live-scan demos and the landing hero): one labelled field and one button. What
 * differs between screens (texts, locking, hints, theme) is a prop, so the field's behaviour and
 * accessibility are written once.
 */
export function UrlScanForm({
  label,
  value,
  onValueChange,
  onSubmit,
  submitContent,
  busy = false,
  lockField,
  disabled = false,
  submitWhenBlank = false,
  id: fixedId,
  placeholder,
  name,
  formLabel,
  inputRef,
  onBlur,
  invalid = false,
  error,
  hint,
  adornment,
  actions,
  buttonSize,
  look = {},
}: UrlScanFormProps) {
  const madeUpId = useId();
  const id = fixedId ?? madeUpId;
  const errorId = `${id}-error`;
  const hintId = `${id}-status`;
  const trimmed = value.trim();
  const blocked = busy || disabled || (!trimmed && !submitWhenBlank);
  const describedBy = [error ? errorId : undefined, hint ? hintId : undefined]
    .filter(Boolean)
    .join(' ');

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (blocked) return;
    onSubmit(trimmed);
  };

  return (
    <form
      onSubmit={submit}
      noValidate
      aria-label={formLabel}
      className={cn('grid gap-3', look.form)}
    >
      <div className="grid gap-3 sm:grid-cols-[1fr_auto] sm:items-end">
        <div className="grid gap-1.5">
          <Label htmlFor={id} className={look.label}>
            {label}
          </Label>
          <div className="relative">
            <Input
              ref={inputRef}
              id={id}
              name={name}
              type="text"
              inputMode="url"
              autoComplete="url"
              placeholder={placeholder}
              value={value}
              onChange={(event) => onValueChange(event.target.value)}
              onBlur={onBlur}
              disabled={disabled || (busy && lockField === 'disabled')}
              readOnly={busy && lockField === 'readOnly'}
              aria-invalid={invalid || !!error}
              aria-describedby={describedBy || undefined}
              className={look.input}
            />
            {adornment && (
              <span className="absolute inset-y-0 right-3 flex items-center" aria-hidden="true">
                {adornment}
              </span>
            )}
          </div>
        </div>
        <div className="flex gap-2">
          <Button type="submit" size={buttonSize} disabled={blocked} className={look.button}>
            {submitContent}
          </Button>
          {actions}
        </div>
      </div>
      {error && (
        <p id={errorId} role="alert" className="text-sm font-medium text-bad">
          {error}
        </p>
      )}
      {hint && (
        <p id={hintId} aria-live="polite" className={cn('text-sm text-slate-700', hint.className)}>
          {hint.text}
        </p>
      )}
    </form>
  );
}
