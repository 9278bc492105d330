import { CheckCircle2, XCircle } from 'lucide-react';
import { useState, type Ref } from 'react';
import { useNavigate } from 'react-router';
import { paths } from '../../../lib/paths';
import { UrlScanForm } from '../../../components/url-scan-form';
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

  const submit = () => {
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
    <UrlScanForm
      id="website-url"
      name="url"
      label="Your website address"
      value={text}
      onValueChange={setText}
      onSubmit={submit}
      submitWhenBlank
      submitContent="Scan my website free"
      buttonSize="lg"
      placeholder={placeholder}
      inputRef={inputRef}
      onBlur={() => setText((t) => (t.trim() ? withScheme(t) : t))}
      invalid={validity === 'invalid'}
      adornment={
        <>
          {validity === 'valid' && (
            <CheckCircle2 data-testid="url-valid" className="h-6 w-6 text-ok" />
          )}
          {validity === 'invalid' && (
            <XCircle data-testid="url-invalid" className="h-6 w-6 text-bad" />
          )}
        </>
      }
      hint={{
        className: 'text-left',
        text:
          validity === 'valid'
            ? 'Looks good: this is a valid website address.'
            : validity === 'invalid'
              ? 'This is not a valid website address yet, for example yoursite.com.'
              : 'We add https:// for you. No credit card needed.',
      }}
      look={{
        form: 'mt-8 w-full max-w-2xl',
        label: 'block text-left font-semibold',
        input: 'h-12 pr-11 text-lg',
      }}
    />
  );
}
