import { CheckCircle2, XCircle } from 'lucide-react';
import { useState, type FormEvent, type Ref } from 'react';
import { useNavigate } from 'react-router';
import { paths } from '../../../lib/paths';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { track, trackFormError } from '../../../lib/analytics';
import { toast } from '../../../lib/toast-store';
import { useTypingPlaceholder } from '../hooks/use-typing-placeholder';
import { isWebsiteUrl, sampleWebsites, withScheme } from '../website-url';

/**
 * The hero's website field: the placeholder types sample addresses, a mark shows whether the
 * text is a valid address, and a valid one goes on to sign-up.
 */
export function UrlForm({ inputRef }: { inputRef?: Ref<HTMLInputElement> }) {
  const navigate = useNavigate();
  const placeholder = useTypingPlaceholder(sampleWebsites);
  const [text, setText] = useState('');
  const normalized = withScheme(text);
  const validity = text.trim() === '' ? 'empty' : isWebsiteUrl(normalized) ? 'valid' : 'invalid';

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!isWebsiteUrl(normalized)) {
      trackFormError('landing_url', 'url', 'Please enter a valid URL');
      toast({
        title: 'Invalid URL',
        description: 'Please enter a valid URL',
        variant: 'destructive',
      });
      return;
    }
    setText(normalized);
    track('feature_usage', { feature: 'landing_url_form', scan_url: normalized });
    void navigate(paths.signup.getHref({ url: normalized }));
  };

  return (
    <form onSubmit={onSubmit} noValidate className="mt-8 w-full max-w-2xl">
      <label htmlFor="website-url" className="block text-left text-sm font-semibold">
        Your website address
      </label>
      <div className="mt-2 flex flex-col gap-3 sm:flex-row">
        <div className="relative flex-1">
          <Input
            ref={inputRef}
            id="website-url"
            name="url"
            type="text"
            inputMode="url"
            autoComplete="url"
            placeholder={placeholder}
            value={text}
            onChange={(e) => setText(e.target.value)}
            onBlur={() => setText((t) => (t.trim() ? withScheme(t) : t))}
            aria-invalid={validity === 'invalid'}
            aria-describedby="website-url-status"
            className="h-12 pr-11 text-lg"
          />
          <span className="absolute inset-y-0 right-3 flex items-center" aria-hidden="true">
            {validity === 'valid' && (
              <CheckCircle2 data-testid="url-valid" className="h-6 w-6 text-ok" />
            )}
            {validity === 'invalid' && (
              <XCircle data-testid="url-invalid" className="h-6 w-6 text-bad" />
            )}
          </span>
        </div>
        <Button type="submit" size="lg">
          Scan my website free
        </Button>
      </div>
      <p
        id="website-url-status"
        className="mt-2 text-left text-sm text-slate-700"
        aria-live="polite"
      >
        {validity === 'valid' && 'Looks good: this is a valid website address.'}
        {validity === 'invalid' &&
          'This is not a valid website address yet, for example yoursite.com.'}
        {validity === 'empty' && 'We add https:// for you. No credit card needed.'}
      </p>
    </form>
  );
}
