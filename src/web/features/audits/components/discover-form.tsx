import { Search } from 'lucide-react';
import { useId, type FormEvent, type Ref } from 'react';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';

/**
 * Step one of both discovery screens: a homepage address and Discover Pages (spec §2). The
 * address must not be blank once trimmed (spec §5); a failure shows in red, announced at once.
 */
export function DiscoverForm({
  url,
  onUrlChange,
  onDiscover,
  isPending,
  error,
  inputRef,
  disabled = false,
}: {
  url: string;
  onUrlChange: (url: string) => void;
  onDiscover: (url: string) => void;
  isPending: boolean;
  error: string | null;
  inputRef?: Ref<HTMLInputElement>;
  disabled?: boolean;
}) {
  const id = useId();
  const trimmed = url.trim();
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!trimmed || isPending || disabled) return;
    onDiscover(trimmed);
  };
  return (
    <form onSubmit={onSubmit} className="grid gap-3">
      <div className="grid gap-3 sm:grid-cols-[1fr_auto] sm:items-end">
        <div className="grid gap-1.5">
          <Label htmlFor={id}>Homepage URL</Label>
          <Input
            ref={inputRef}
            id={id}
            type="text"
            inputMode="url"
            autoComplete="url"
            placeholder="https://example.com"
            value={url}
            onChange={(event) => onUrlChange(event.target.value)}
            aria-describedby={error ? `${id}-error` : undefined}
            aria-invalid={!!error}
            disabled={disabled}
          />
        </div>
        <Button type="submit" disabled={!trimmed || isPending || disabled}>
          <Search aria-hidden="true" className="h-4 w-4" />
          {isPending ? 'Discovering…' : 'Discover Pages'}
        </Button>
      </div>
      {error && (
        <p id={`${id}-error`} role="alert" className="text-sm font-medium text-bad">
          {error}
        </p>
      )}
    </form>
  );
}
