import { CreditCard } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { complianceShield } from '#contract/billing.js';
import type { SubscriptionStatusResponse } from '#contract/domains.js';
import { useCancelSubscription } from '../../../api/billing/cancel-subscription';
import {
  hasActiveSubscription,
  useSubscriptionStatus,
} from '../../../api/billing/subscription-status';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogTitle,
} from '../../../components/ui/dialog';
import { Spinner } from '../../../components/ui/spinner';
import { BillingInterval } from './billing-interval';
import { messageOf } from '../../../lib/api-client';
import { paths } from '../../../lib/paths';
import { toast } from '../../../lib/toast-store';
import { formatDate } from '#contract/vocabulary.js';

const statusLabels: Record<string, string> = {
  active: 'Active',
  trialing: 'Free month',
  past_due: 'Payment due: grace period',
  cancelled: 'Cancelled',
  expired: 'Expired',
  inactive: 'Not subscribed',
};

/** Settings, billing: the plan, what it costs each month, the next charge, the card, cancel. */
export function BillingSection() {
  const status = useSubscriptionStatus();
  return (
    <section aria-labelledby="billing-heading" className="mt-8">
      <Card>
        <h2 id="billing-heading" className="text-xl font-bold">
          Billing
        </h2>
        {status.isPending && <Spinner label="Loading your plan" />}
        {status.isError && (
          <p role="alert" className="mt-4 text-bad">
            Failed to fetch subscription status
          </p>
        )}
        {status.data && <BillingDetails status={status.data} />}
      </Card>
    </section>
  );
}

function BillingDetails({ status }: { status: SubscriptionStatusResponse }) {
  const active = hasActiveSubscription(status) || status.subscriptionStatus === 'past_due';
  return (
    <>
      <dl className="mt-4 grid gap-x-6 gap-y-3 sm:grid-cols-[auto_1fr]">
        <dt className="text-slate-700">Plan</dt>
        <dd className="font-semibold">
          {complianceShield.product} ·{' '}
          {statusLabels[status.subscriptionStatus] ?? status.subscriptionStatus}
          {status.subscriptionStatus === 'trialing' && status.trialDaysRemaining > 0
            ? ` (${status.trialDaysRemaining} ${status.trialDaysRemaining === 1 ? 'day' : 'days'} left)`
            : ''}
        </dd>
        <dt className="text-slate-700">Monthly total</dt>
        <dd className="font-semibold">${status.monthlyTotal}/month</dd>
        <dt className="text-slate-700">Next charge</dt>
        <dd className="font-semibold">
          {status.nextChargeDate && active ? formatDate(status.nextChargeDate) : 'None scheduled'}
        </dd>
        <dt className="text-slate-700">Card on file</dt>
        <dd className="flex items-center gap-2 font-semibold">
          <CreditCard aria-hidden="true" className="h-5 w-5" />
          {status.cardAdded ? 'Yes' : 'No card on file'}
        </dd>
        {status.cancelledAt && !active && (
          <>
            <dt className="text-slate-700">Cancelled</dt>
            <dd className="font-semibold">{formatDate(status.cancelledAt)}</dd>
          </>
        )}
      </dl>
      <div className="mt-6 flex flex-wrap gap-3">
        {(!status.cardAdded || !active) && (
          <Button asChild>
            <Link to={paths.appSubscribe.getHref()}>
              {active ? 'Add a card' : 'Activate Compliance Shield'}
            </Link>
          </Button>
        )}
        <Button asChild variant="outline">
          <Link to={paths.dashboardDomains.getHref()}>Manage domains</Link>
        </Button>
        {active && <CancelButton />}
      </div>
      {active && <BillingInterval />}
    </>
  );
}

function CancelButton() {
  const [open, setOpen] = useState(false);
  const cancel = useCancelSubscription();
  const confirm = async () => {
    try {
      await cancel.mutateAsync();
      setOpen(false);
      toast({
        title: 'Subscription Cancelled',
        description:
          'Compliance Shield is cancelled. Monitoring has stopped and your scan history is kept.',
        variant: 'success',
      });
    } catch (error) {
      toast({
        title: 'Failed to cancel subscription',
        description: messageOf(error, 'Please try again.'),
        variant: 'destructive',
      });
    }
  };
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <Button type="button" variant="destructive" onClick={() => setOpen(true)}>
        Cancel subscription
      </Button>
      <DialogContent>
        <DialogTitle>Cancel Compliance Shield?</DialogTitle>
        <DialogDescription>
          Cancelling takes effect at once: every monitored domain is archived, so monitoring, its
          public status page and badge stop. Your scans and history are kept, and no further month
          is charged.
        </DialogDescription>
        <div className="mt-6 flex flex-wrap justify-end gap-3">
          <DialogClose asChild>
            <Button variant="outline">Keep my subscription</Button>
          </DialogClose>
          <Button variant="destructive" disabled={cancel.isPending} onClick={() => void confirm()}>
            {cancel.isPending ? 'Cancelling…' : 'Cancel subscription'}
          </Button>
        </div>
      </DialogContent>
    </Dialog>
  );
}
