import { CheckCircle2, ShieldAlert } from 'lucide-react';
import { Link } from 'react-router';
import { domainMonthlyPriceUsd } from '#contract/billing.js';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { paths } from '../../../lib/paths';

/** Spec §6: what the Domains page shows when the domains call answers 402. */
export function SubscriptionRequired() {
  return (
    <Card className="mt-6 max-w-2xl">
      <h2 className="flex items-center gap-2 text-xl font-bold">
        <ShieldAlert aria-hidden="true" className="h-6 w-6 text-brand-600" />
        Compliance Shield Required
      </h2>
      <p className="mt-2 text-slate-700">Subscription required for domain management</p>
      <ul className="mt-4 grid gap-2">
        {['First month free', `$${domainMonthlyPriceUsd(1)}/month after`, 'Cancel anytime'].map(
          (line) => (
            <li key={line} className="flex gap-2">
              <CheckCircle2 aria-hidden="true" className="h-5 w-5 shrink-0 text-ok" />
              {line}
            </li>
          ),
        )}
      </ul>
      <Button asChild className="mt-6">
        <Link to={paths.appSubscribe.getHref()}>Start Free Month with Compliance Shield</Link>
      </Button>
    </Card>
  );
}
