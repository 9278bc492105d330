import { useId } from 'react';
import type { DomainVerification } from '#contract/domains.js';
import { useVerifyDomain } from '../api/domains/domain-verification';
import { messageOf } from '../lib/api-client';
import { Button } from './ui/button';
import { Card } from './ui/card';

const methodNames: Record<NonNullable<DomainVerification['method']>, string> = {
  dns: 'its DNS TXT record',
  meta: 'the meta tag on its home page',
  file: 'its verification file',
};

/**
 * How an owner proves a domain is theirs (ADR 0007), and a button that checks now. The domain's
 * public status page, compliance page and badge stay off until a check finds the token.
 */
export function DomainVerificationPanel({
  domain,
  verification,
}: {
  domain: string;
  verification: DomainVerification;
}) {
  const verify = useVerifyDomain(domain);
  const headingId = useId();
  const state = verify.data ?? verification;

  return (
    <Card className="text-left">
      <section aria-labelledby={headingId}>
        <h2 id={headingId} className="text-xl font-bold">
          Verify that you own <span className="break-all">{domain}</span>
        </h2>
        <p className="mt-2 text-slate-700">
          The public status page and compliance page of {domain} go live once you prove the site is
          yours. Publish any one of these, then select Verify now.
        </p>
        <dl className="mt-4 grid gap-3 text-sm">
          <div>
            <dt className="font-semibold">DNS TXT record</dt>
            <dd>
              Name: <code className="break-all">{state.dns.name}</code>
              <br />
              Value: <code className="break-all">{state.dns.value}</code>
            </dd>
          </div>
          <div>
            <dt className="font-semibold">Or a meta tag in the head of your home page</dt>
            <dd>
              <code className="break-all">{state.meta.tag}</code>
            </dd>
          </div>
          <div>
            <dt className="font-semibold">Or a file on your site</dt>
            <dd>
              Address: <code className="break-all">{state.file.url}</code>
              <br />
              Content: <code className="break-all">{state.file.content}</code>
            </dd>
          </div>
        </dl>
        <Button
          className="mt-4"
          disabled={verify.isPending}
          onClick={() => verify.mutate(undefined)}
        >
          {verify.isPending ? 'Checking…' : 'Verify now'}
        </Button>
        <p role="status" className="mt-3 text-sm">
          {verify.isError
            ? messageOf(verify.error, 'The check could not be run; please try again.')
            : state.verified && state.method
              ? `Verified by ${methodNames[state.method]}: the public pages of ${domain} are live.`
              : state.error && state.checkedAt
                ? `Not verified yet. ${state.error}`
                : ''}
        </p>
      </section>
    </Card>
  );
}
