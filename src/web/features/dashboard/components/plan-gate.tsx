import { ShieldCheck } from 'lucide-react';
import { Link, Outlet } from 'react-router';
import { domainMonthlyPriceUsd } from '#contract/billing.js';
import {
  hasActiveSubscription,
  useSubscriptionStatus,
} from '../../../api/billing/subscription-status';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Spinner } from '../../../components/ui/spinner';
import { usePageTitle } from '../../../lib/page-title';
import { paths } from '../../../lib/paths';

/**
 * The dashboard gate (spec §2): the sections below it need Compliance Shield. The subscription
 * is read every 30 seconds, so a plan bought or cancelled in another tab shows here too.
 */
export function PlanGate() {
  const status = useSubscriptionStatus();
  if (status.isPending) return <Spinner label="Checking your plan" className="min-h-[50vh]" />;
  if (status.isError) {
    return (
      <div className="mx-auto max-w-2xl px-4 py-12">
        <h1 className="text-2xl font-bold">Your plan could not be checked</h1>
        <p role="alert" className="mt-4 rounded-md border border-bad p-4 text-bad">
          Failed to fetch subscription status
        </p>
        <Button
          type="button"
          variant="outline"
          className="mt-4"
          onClick={() => void status.refetch()}
        >
          Try again
        </Button>
      </div>
    );
  }
  if (!hasActiveSubscription(status.data)) return <PlanRequired />;
  return <Outlet />;
}

/** What a section shows to an account without the plan. */
export function PlanRequired({ headingLevel = 1 }: { headingLevel?: 1 | 2 }) {
  usePageTitle('Compliance Shield Required');
  const Heading = headingLevel === 1 ? 'h1' : 'h2';
  return (
    <div className="mx-auto max-w-2xl px-4 py-12">
      <Heading className="text-2xl font-bold">
        Compliance Shield required to access your dashboard
      </Heading>
      <PlanRequiredCard />
    </div>
  );
}

/** Spec §2: a card 'Compliance Shield Required' linking to /app/subscribe. */
export function PlanRequiredCard() {
  return (
    <Card className="mt-6">
      <p className="flex items-center gap-2 text-lg font-bold">
        <ShieldCheck aria-hidden="true" className="h-6 w-6 text-brand-600" />
        Compliance Shield Required
      </p>
      <p className="mt-2 text-slate-700">
        Monitor your domains, publish your status page and badge, and answer the concerns visitors
        report. First month free, then ${domainMonthlyPriceUsd(1)}/month. Cancel anytime.
      </p>
      <Button asChild className="mt-4">
        <Link to={paths.appSubscribe.getHref()}>Activate Compliance Shield</Link>
      </Button>
    </Card>
  );
}

/** On the overview: the card above the scans, which stay reachable to free accounts. */
export function PlanNotice() {
  const status = useSubscriptionStatus();
  if (!status.data || hasActiveSubscription(status.data)) return null;
  return (
    <div className="mx-auto max-w-5xl px-4 pt-8">
      <p className="font-semibold">Compliance Shield required to access your dashboard</p>
      <PlanRequiredCard />
    </div>
  );
}
