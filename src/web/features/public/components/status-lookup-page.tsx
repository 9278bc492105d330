import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '../../../components/ui/button';
import { FormField } from '../../../components/ui/form-field';
import { Input } from '../../../components/ui/input';
import { paths } from '../../../lib/paths';
import { usePageTitle } from '../../../lib/page-title';
import { hostOf } from '../host-of';

/**
 * Finds a domain's public status page: the header's "Status pages". A status page exists for
 * each domain its owner monitors; the page itself says so when there is none.
 */
export function StatusLookupPage() {
  usePageTitle('Find a status page');
  const navigate = useNavigate();
  const [value, setValue] = useState('');
  const [error, setError] = useState<string>();

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const host = hostOf(value);
    if (!host) {
      setError('Enter a domain such as example.com.');
      return;
    }
    void navigate(paths.status.getHref(host));
  };

  return (
    <div className="mx-auto max-w-xl px-4 py-12">
      <p className="text-sm font-semibold text-brand-600">Public accessibility status</p>
      <h1 className="mt-1 text-3xl font-bold">Find a status page</h1>
      <p className="mt-4 text-slate-700">
        Every website monitored with Conformly has a public page with its latest score, open issues,
        its audit trail and a way to report an accessibility problem to its owner.
      </p>
      <form noValidate onSubmit={onSubmit} className="mt-8 grid gap-4">
        <FormField label="Website domain" error={error} hint="For example example.com">
          {(ids) => (
            <Input
              {...ids}
              type="text"
              inputMode="url"
              autoComplete="url"
              value={value}
              onChange={(event) => {
                setValue(event.target.value);
                setError(undefined);
              }}
            />
          )}
        </FormField>
        <Button type="submit" className="justify-self-start">
          Open status page
        </Button>
      </form>
    </div>
  );
}
