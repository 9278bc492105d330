import { ShieldCheck } from 'lucide-react';
import { Link, Outlet } from 'react-router';
import { domainMonthlyCents } from '#contract/catalogue.js';
import type { SubscriptionStatusResponse } from '#contract/domains.js';
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
  if (!hasActiveSubscription(status.data)) return <PlanRequired status={status.data} />;
  return <Outlet />;
}

/**
 * Activated (a card on file) but nothing monitored yet: the plan starts with a first domain, so
 * the way on is the Domains page, not paying again.
 */
function awaitsFirstDomain(status: SubscriptionStatusResponse): boolean {
  return status.cardAdded && status.subscriptionStatus === 'inactive';
}

/** What a section shows to an account without the plan. */
function PlanRequired({ status }: { status: SubscriptionStatusResponse }) {
  usePageTitle('Compliance Shield Required');
  return (
    <div className="mx-auto max-w-2xl px-4 py-12">
      <h1 className="text-2xl font-bold">Compliance Shield required to access your dashboard</h1>
      {awaitsFirstDomain(status) ? <FirstDomainCard /> : <PlanRequiredCard />}
    </div>
  );
}

function FirstDomainCard() {
  return (
    <Card className="mt-6">
      <p className="flex items-center gap-2 text-lg font-bold">
        <ShieldCheck aria-hidden="true" className="h-6 w-6 text-brand-600" />
        Add your first domain
      </p>
      <p className="mt-2 text-slate-700">
        Compliance Shield is activated. Add the website you want monitored; its first month is free.
      </p>
      <Button asChild className="mt-4">
        <Link to={paths.dashboardDomains.getHref()}>Go to Domains</Link>
      </Button>
    </Card>
  );
}

/** Spec §2: a card 'Compliance Shield Required' linking to /app/subscribe. */
function PlanRequiredCard() {
  return (
    <Card className="mt-6">
      <p className="flex items-center gap-2 text-lg font-bold">
        <ShieldCheck aria-hidden="true" className="h-6 w-6 text-brand-600" />
        Compliance Shield Required
      </p>
      <p className="mt-2 text-slate-700">
        Monitor your domains, publish your status page and badge, and answer the concerns visitors
        report. First month free, then ${domainMonthlyCents(1) / 100}/month. Cancel anytime.
      </p>
      <Button asChild className="mt-4">
        <Link to={paths.appSubscribe.getHref()}>Activate Compliance Shield</Link>
      </Button>
    </Card>
  );
}

/** On the overview: the card above the scans, which stay reachable to free accounts. */
export function PlanNotice() {
  // Shown once the overview around it has read the plan.
  const status = useSubscriptionStatus({ refetchOnMount: false });
  if (!status.data || hasActiveSubscription(status.data)) return null;
  return (
    <div className="mx-auto max-w-5xl px-4 pt-8">
      <p className="font-semibold">Compliance Shield required to access your dashboard</p>
      {awaitsFirstDomain(status.data) ? <FirstDomainCard /> : <PlanRequiredCard />}
    </div>
  );
}
