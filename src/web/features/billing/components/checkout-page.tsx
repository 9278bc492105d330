import { zodResolver } from '@hookform/resolvers/zod';
import { CheckCircle2, ShieldCheck } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate, useParams } from 'react-router';
import type { z } from 'zod';
import {
  SubscribeRequest,
  type CheckoutResponse,
  type SubscribeResponse,
} from '#contract/billing.js';
import { useDomainVerification } from '../../../api/domains/domain-verification';
import { DomainVerificationPanel } from '../../../components/domain-verification-panel';
import { paths } from '../../../lib/paths';
import { usePageTitle } from '../../../lib/page-title';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { FormField } from '../../../components/ui/form-field';
import { Input } from '../../../components/ui/input';
import { Spinner } from '../../../components/ui/spinner';
import { track, trackFormError } from '../../../lib/analytics';
import { messageOf } from '../../../lib/api-client';
import { toast } from '../../../lib/toast-store';
import { useCheckout } from '../api/get-checkout';
import { useSubscribe } from '../api/subscribe';
import { purchaseEvent, subscriptionSelectedEvent } from '../checkout-analytics';
import { formatUsd } from '#contract/catalogue.js';
import { formatDate, formatScoreWithLabel } from '#contract/vocabulary.js';

/**
 * Spec §9: after the payment the visitor goes to the domain's audit page after 2 s; that page is
 * live only once the owner proved the domain is theirs (ADR 0007), so until then the success
 * screen shows how to prove it and goes on once a check finds the token.
 */
const redirectDelayMs = 2000;

/** The order form checks what the server checks, with the same words. */
const orderFormSchema = SubscribeRequest.pick({ email: true, company: true });
type OrderFormInput = z.input<typeof orderFormSchema>;
type OrderForm = z.output<typeof orderFormSchema>;

/** Checkout (spec public-area §2 /subscribe/{scanId}); the spec's 'Start Accessibility Monitoring' promised what a machine scan cannot give (ADR 0013). */
export function CheckoutPage() {
  const { scanId = '' } = useParams();
  const checkout = useCheckout(scanId);
  usePageTitle('Start Accessibility Monitoring');

  if (checkout.isPending) return <Spinner label="Loading your order" className="min-h-[50vh]" />;
  if (checkout.isError) {
    return (
      <div className="mx-auto max-w-xl px-4 py-24 text-center">
        <h1 className="text-3xl font-bold">Scan Not Found</h1>
        <p className="mt-4 text-slate-700">Please start a new accessibility scan.</p>
        <Button asChild className="mt-8">
          <Link to={paths.home.getHref()}>Start a new scan</Link>
        </Button>
      </div>
    );
  }
  return <Checkout data={checkout.data} />;
}

type Stage =
  { name: 'form' } | { name: 'processing' } | { name: 'success'; answer: SubscribeResponse };

function Checkout({ data }: { data: CheckoutResponse }) {
  const [stage, setStage] = useState<Stage>({ name: 'form' });
  if (stage.name === 'success') return <Success answer={stage.answer} />;
  return (
    <div className="mx-auto max-w-5xl px-4 py-10">
      <p className="text-sm font-semibold text-brand-600">
        {data.product} · {data.plan}
      </p>
      <h1 className="mt-1 text-3xl font-bold">Start Accessibility Monitoring</h1>
      <p className="mt-2 max-w-2xl text-slate-700">
        Put <strong className="break-all">{data.scan.domain}</strong> under continuous accessibility
        monitoring, with a public compliance page and status page that show your good faith.
      </p>
      <div className="mt-8 grid gap-8 md:grid-cols-[1fr_20rem]">
        <section aria-labelledby="order-heading">
          <Card>
            <h2 id="order-heading" className="text-xl font-bold">
              Your order
            </h2>
            <div className="mt-4">
              <OrderStep data={data} stage={stage} setStage={setStage} />
            </div>
          </Card>
        </section>
        <PlanSummary data={data} />
      </div>
    </div>
  );
}

function OrderStep({
  data,
  stage,
  setStage,
}: {
  data: CheckoutResponse;
  stage: Stage;
  setStage: (stage: Stage) => void;
}) {
  const domain = data.scan.domain;
  if (!data.signedIn) {
    // A scan made while signed out stays with the browser that ran it: an account subscribes from
    // a scan of its own (a scan is never adopted on logging in), so the way back is a new scan of
    // the same address from the account, whose report links here again.
    const next = paths.scan.getHref(data.scan.url);
    return (
      <div>
        <p className="font-semibold">Log in to subscribe</p>
        <p className="mt-2 text-slate-700">
          Compliance Shield belongs to an account, which is where you manage the domain, its badge
          and the concerns visitors report. Log in or create a free account: you come back to a scan
          of <span className="break-all">{data.scan.url}</span> ready to start, and subscribe from
          its report.
        </p>
        <div className="mt-4 flex flex-wrap gap-3">
          <Button asChild>
            <Link to={paths.login.getHref(undefined, next)}>Log in</Link>
          </Button>
          <Button asChild variant="outline">
            <Link to={paths.signup.getHref({ next })}>Sign up</Link>
          </Button>
        </div>
      </div>
    );
  }
  if (data.monitoredBy === 'another account') {
    // ADR 0007: a verified owner holds the domain, but a new owner (a site that changed hands)
    // takes it over by proving control, so the order stays open and says what it will take.
    return (
      <div className="grid gap-4">
        <p role="note" className="rounded-md border border-amber-700 p-3 text-slate-900">
          Another account has proved that it controls {domain}. You can still subscribe: the domain
          becomes yours once you verify ownership (a DNS record, a meta tag or a file on the site),
          and until then nothing of theirs is shown to you.
        </p>
        <OrderForm data={data} stage={stage} setStage={setStage} />
      </div>
    );
  }
  if (data.monitoredBy === 'you') {
    return (
      <div>
        <p className="font-semibold">You already monitor {domain}.</p>
        <p className="mt-2">
          <Link className="text-brand-600 underline" to={paths.audit.getHref(domain)}>
            Open its compliance page
          </Link>
        </p>
      </div>
    );
  }
  return <OrderForm data={data} stage={stage} setStage={setStage} />;
}

function OrderForm({
  data,
  stage,
  setStage,
}: {
  data: CheckoutResponse;
  stage: Stage;
  setStage: (stage: Stage) => void;
}) {
  const subscribe = useSubscribe();
  const form = useForm<OrderFormInput, unknown, OrderForm>({
    resolver: zodResolver(orderFormSchema),
    defaultValues: { email: data.accountEmail ?? '', company: '' },
  });
  const { errors } = form.formState;
  const processing = stage.name === 'processing';

  const onSubmit = form.handleSubmit(
    async (input) => {
      track('subscription_selected', subscriptionSelectedEvent(data.monthlyPrice));
      setStage({ name: 'processing' });
      try {
        const answer = await subscribe.mutateAsync({
          scanId: data.scan.id,
          domain: data.scan.domain,
          email: input.email,
          ...(input.company ? { company: input.company } : {}),
        });
        const purchase = purchaseEvent(answer);
        if (purchase) track('purchase', purchase);
        setStage({ name: 'success', answer });
      } catch (error) {
        setStage({ name: 'form' });
        toast({
          title: 'Payment Failed',
          description: messageOf(error, 'Failed to process payment').replace(
            /^Payment Failed: /,
            '',
          ),
          variant: 'destructive',
        });
      }
    },
    (invalid) => {
      const message = invalid.email?.message;
      if (!message) return;
      const empty = form.getValues('email').trim() === '';
      toast({
        title: empty ? 'Email Required' : 'Invalid Email',
        description: message,
        variant: 'destructive',
      });
      trackFormError('checkout', 'email', message);
    },
  );

  return (
    <form noValidate onSubmit={onSubmit} aria-busy={processing}>
      <fieldset disabled={processing} className="grid gap-4">
        <legend className="sr-only">Order details</legend>
        <FormField
          label="Email"
          error={errors.email?.message}
          hint="Where we send your confirmation and monitoring alerts."
        >
          {(ids) => (
            <Input {...ids} type="email" autoComplete="email" {...form.register('email')} />
          )}
        </FormField>
        <FormField label="Company (optional)" error={errors.company?.message}>
          {(ids) => <Input {...ids} autoComplete="organization" {...form.register('company')} />}
        </FormField>
        <Button type="submit" size="lg">
          {processing
            ? 'Processing…'
            : data.trialAvailable
              ? 'Start my free month'
              : `Subscribe for $${data.monthlyPrice}/month`}
        </Button>
      </fieldset>
      <p role="status" className="mt-3 min-h-6 text-sm text-slate-700">
        {processing ? 'Processing your order…' : ''}
      </p>
    </form>
  );
}

function PlanSummary({ data }: { data: CheckoutResponse }) {
  const { scan } = data;
  // A domain the caller monitors already (in its free month or paid) costs nothing to order again.
  const alreadyYours = data.monitoredBy === 'you';
  return (
    <aside aria-labelledby="plan-heading" className="grid content-start gap-4">
      {data.payment.demo && (
        <div role="note" className="rounded-md border-2 border-warn bg-amber-50 p-4 text-warn">
          <p className="text-lg font-bold">Demo payment: no card is charged</p>
          <p className="mt-1 text-sm">
            This service runs with a demo payment provider: your order enrols the domain, and no
            money moves.
          </p>
        </div>
      )}
      <Card>
        <h2 id="plan-heading" className="flex items-center gap-2 text-xl font-bold">
          <ShieldCheck aria-hidden="true" className="h-6 w-6 text-brand-600" />
          {data.plan}
        </h2>
        <p className="text-slate-700">{data.product}</p>
        <p className="mt-4 text-3xl font-extrabold">
          {formatUsd(Math.round(data.monthlyPrice * 100))}
          <span className="text-base font-semibold text-slate-700">/month</span>
        </p>
        <p className="font-semibold text-ok">
          {alreadyYours
            ? 'You monitor this domain already: ordering again charges nothing.'
            : data.trialAvailable
              ? 'First month free'
              : 'This domain has had its free month; the first month is charged today.'}
        </p>
        <dl className="mt-4 grid grid-cols-[1fr_auto] gap-x-4 gap-y-1 text-sm">
          <dt>Due today</dt>
          <dd className="font-semibold">
            {formatUsd(alreadyYours ? 0 : Math.round(data.dueToday * 100))}
          </dd>
          <dt>Currency</dt>
          <dd className="font-semibold">{data.currency}</dd>
        </dl>
        <ul className="mt-4 grid gap-2 text-sm">
          {[
            'Weekly automated accessibility scans',
            'Public compliance page and status page',
            'Live compliance badge',
            'Visitor concerns reported to you before they become complaints',
            'Cancel anytime',
          ].map((feature) => (
            <li key={feature} className="flex gap-2">
              <CheckCircle2 aria-hidden="true" className="h-5 w-5 shrink-0 text-ok" />
              {feature}
            </li>
          ))}
        </ul>
      </Card>
      <Card>
        <h2 className="font-semibold">Your scan</h2>
        <dl className="mt-2 grid gap-1 text-sm">
          <dt className="text-slate-700">Page</dt>
          <dd className="font-semibold break-all">{scan.url}</dd>
          <dt className="text-slate-700">Score</dt>
          <dd className="font-semibold">{formatScoreWithLabel(scan.accessibilityScore)}</dd>
          <dt className="text-slate-700">Issues</dt>
          <dd className="font-semibold">{scan.totalIssues}</dd>
          {scan.completedAt && (
            <>
              <dt className="text-slate-700">Scanned</dt>
              <dd className="font-semibold">{formatDate(scan.completedAt)}</dd>
            </>
          )}
        </dl>
      </Card>
    </aside>
  );
}

function Success({ answer }: { answer: SubscribeResponse }) {
  const navigate = useNavigate();
  const heading = useRef<HTMLHeadingElement>(null);
  const auditHref = paths.audit.getHref(answer.domain);
  const verification = useDomainVerification(answer.domain);
  const verified = verification.data?.verified === true;
  // Once shown, the instructions stay, so the owner reads that the check found the token.
  const [askedToVerify, setAskedToVerify] = useState(false);
  if (verification.data && !verification.data.verified && !askedToVerify) setAskedToVerify(true);

  useEffect(() => {
    heading.current?.focus();
  }, []);

  useEffect(() => {
    if (!verified) return;
    const timer = setTimeout(() => void navigate(auditHref), redirectDelayMs);
    return () => clearTimeout(timer);
  }, [navigate, auditHref, verified]);

  return (
    <div className="mx-auto max-w-xl px-4 py-24 text-center">
      <CheckCircle2 aria-hidden="true" className="mx-auto h-12 w-12 text-ok" />
      <h1 ref={heading} tabIndex={-1} className="mt-4 text-3xl font-bold">
        Your Accessibility Monitoring Is Active
      </h1>
      <p className="mt-4 text-slate-700">
        Compliance Shield now monitors <strong className="break-all">{answer.domain}</strong>
        {answer.trialEndsAt
          ? `; your free month runs until ${formatDate(answer.trialEndsAt)}.`
          : '.'}
      </p>
      {answer.payment?.demo && (
        <p className="mt-2 text-sm text-slate-700">
          Demo payment {answer.payment.transactionId}: no card was charged.
        </p>
      )}
      {askedToVerify && verification.data && (
        <div className="mt-8">
          <DomainVerificationPanel domain={answer.domain} verification={verification.data} />
          {!verified && (
            <Button asChild variant="link" className="mt-4">
              <Link to={paths.dashboard.getHref()}>Go to your dashboard</Link>
            </Button>
          )}
        </div>
      )}
      {verified ? (
        <>
          <p role="status" className="mt-6 font-semibold">
            Taking you to your compliance page…
          </p>
          <Button asChild variant="link" className="mt-2">
            <Link to={auditHref}>Go there now</Link>
          </Button>
        </>
      ) : verification.data ? null : verification.isError ? (
        <p role="alert" className="mt-6">
          {messageOf(verification.error, 'Your domain could not be loaded.')} Its public pages go
          live once you verify that you own it, from your dashboard.
        </p>
      ) : (
        <Spinner label="Checking whether you have verified this domain" />
      )}
    </div>
  );
}
