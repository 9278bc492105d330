import { Search } from 'lucide-react';
import type { Ref } from 'react';
import { UrlScanForm } from '../../../components/url-scan-form';

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
  return (
    <UrlScanForm
      label="Homepage URL"
      placeholder="https://example.com"
      value={url}
      onValueChange={onUrlChange}
      onSubmit={onDiscover}
      busy={isPending}
      disabled={disabled}
      error={error}
      inputRef={inputRef}
      submitContent={
        <>
          <Search aria-hidden="true" className="h-4 w-4" />
          {isPending ? 'Discovering…' : 'Discover Pages'}
        </>
      }
    />
  );
}
