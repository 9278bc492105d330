import { useQueryClient } from '@tanstack/react-query';
import { CheckCircle2, ShieldCheck } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import {
  complianceShield,
  domainMonthlyPriceUsd,
  domainMonthlyPricesUsd,
} from '#contract/billing.js';
import type { CreateSubscriptionResponse, PaymentConfigResponse } from '#contract/domains.js';
import { useCreateSubscription } from '../../../api/billing/create-subscription';
import { useSubscriptionStatus } from '../../../api/billing/subscription-status';
import { usePaymentConfig } from '../../../api/payments/payment-config';
import { CardPayment } from '../../../components/payment/card-payment';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Spinner } from '../../../components/ui/spinner';
import { usePageTitle } from '../../../lib/page-title';
import { paths } from '../../../lib/paths';
import { toast } from '../../../lib/toast-store';
import { formatDate } from '#contract/vocabulary.js';

/**
 * /app/subscribe (spec §2, §4): 'Activate Compliance Shield' with the plan's details and a card
 * form that keeps a card on file for the months after the free one. Stripe needs the
 * subscription's client secret before its card form can show, so in Stripe mode the subscription
 * is created when the page opens (nothing is charged until the card is confirmed); the demo
 * provider needs no card, so there it is created when the owner presses the button.
 */
export function SubscribePage() {
  usePageTitle('Activate Compliance Shield');
  const config = usePaymentConfig();
  return (
    <div className="mx-auto max-w-5xl px-4 py-10">
      <p className="text-sm font-semibold text-brand-600">{complianceShield.product}</p>
      <h1 className="mt-1 text-3xl font-bold">Activate Compliance Shield</h1>
      <div className="mt-8 grid gap-8 md:grid-cols-[1fr_20rem]">
        <section aria-labelledby="payment-heading">
          <Card>
            <h2 id="payment-heading" className="text-xl font-bold">
              Payment method
            </h2>
            <div className="mt-4">
              {config.isPending && <Spinner label="Loading the payment form" />}
              {config.isError && <UnableToLoad />}
              {config.data && <SubscribeForm config={config.data} />}
            </div>
          </Card>
        </section>
        <PlanDetails />
      </div>
    </div>
  );
}

/** Spec §4: the unable-to-load state with a return button. */
function UnableToLoad() {
  return (
    <div>
      <p role="alert" className="font-semibold text-bad">
        Unable to load subscription form
      </p>
      <Button asChild variant="outline" className="mt-4">
        <Link to={paths.dashboard.getHref()}>Return to dashboard</Link>
      </Button>
    </div>
  );
}

function SubscribeForm({ config }: { config: PaymentConfigResponse }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const create = useCreateSubscription();
  const status = useSubscriptionStatus();
  const asked = useRef(false);
  const [subscription, setSubscription] = useState<CreateSubscriptionResponse | undefined>();

  /** Spec §8: 'Error' with what went wrong, then back to the dashboard. */
  const fail = (description: string) => {
    toast({ title: 'Error', description, variant: 'destructive' });
    void navigate(paths.dashboard.getHref());
  };

  const succeed = async () => {
    await queryClient.invalidateQueries();
    toast({
      // The subscription becomes active with the first monitored domain, not with the card.
      title: 'Card saved',
      description:
        'Your card is on file for the months after each domain’s free month. Your subscription starts when you add a domain to monitor.',
      variant: 'success',
    });
    await navigate(paths.dashboard.getHref());
  };

  useEffect(() => {
    if (config.demo || asked.current) return;
    asked.current = true;
    create.mutate(undefined, {
      onSuccess: (answer) => {
        if (!answer.clientSecret) return fail('No client secret received from server');
        setSubscription(answer);
      },
      onError: () => fail('Failed to initialize subscription'),
    });
    // Once per page visit; `fail` and `create` change identity every render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [config.demo]);

  const cardOnFile = status.data?.cardAdded && status.data.subscriptionStatus !== 'cancelled';

  if (config.demo) {
    return (
      <div className="grid gap-4">
        {cardOnFile && (
          <p className="text-sm text-slate-700">
            A card is already on file; activating again replaces it.
          </p>
        )}
        <CardPayment
          config={config}
          clientSecret={null}
          returnPath={paths.dashboard.getHref()}
          submitLabel="Activate Compliance Shield"
          demoNote="Activating records a demo card on file, so your domains stay monitored after their free month."
          onConfirmed={async () => {
            try {
              const answer = await create.mutateAsync();
              setSubscription(answer);
            } catch {
              return fail('Failed to initialize subscription');
            }
            await succeed();
          }}
        />
      </div>
    );
  }
  if (!subscription) return <Spinner label="Preparing your subscription" />;
  return (
    <CardPayment
      config={config}
      clientSecret={subscription.clientSecret}
      returnPath={paths.dashboard.getHref()}
      submitLabel="Activate Compliance Shield"
      onConfirmed={succeed}
    />
  );
}

function PlanDetails() {
  const status = useSubscriptionStatus();
  const data = status.data;
  return (
    <aside aria-labelledby="plan-heading" className="grid content-start gap-4">
      <Card>
        <h2 id="plan-heading" className="flex items-center gap-2 text-xl font-bold">
          <ShieldCheck aria-hidden="true" className="h-6 w-6 text-brand-600" />
          {complianceShield.product}
        </h2>
        <p className="mt-4 text-3xl font-extrabold">
          ${domainMonthlyPriceUsd(1)}
          <span className="text-base font-semibold text-slate-700">/month</span>
        </p>
        <p className="text-sm text-slate-700">
          for your first domain; further domains ${domainMonthlyPricesUsd.slice(1).join(', $')}
          /month
        </p>
        <p className="mt-2 font-semibold text-ok">First month free</p>
        {data && data.trialDaysRemaining > 0 && (
          <p className="mt-1 text-sm">
            Your free month has {data.trialDaysRemaining}{' '}
            {data.trialDaysRemaining === 1 ? 'day' : 'days'} left.
          </p>
        )}
        {data?.nextChargeDate && (
          <p className="mt-1 text-sm">
            Next charge: {formatDate(data.nextChargeDate)} (${data.monthlyTotal}).
          </p>
        )}
        <ul className="mt-4 grid gap-2 text-sm">
          {[
            'Weekly automated accessibility scans',
            'Public status page and live compliance badge',
            'Complaints inbox for visitor concerns',
            'Cancel anytime',
          ].map((feature) => (
            <li key={feature} className="flex gap-2">
              <CheckCircle2 aria-hidden="true" className="h-5 w-5 shrink-0 text-ok" />
              {feature}
            </li>
          ))}
        </ul>
      </Card>
    </aside>
  );
}
