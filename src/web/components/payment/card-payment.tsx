import { CreditCard, FlaskConical } from 'lucide-react';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { PaymentConfigResponse } from '#contract/domains.js';
import { loadStripe, type StripeElements, type StripeInstance } from '../../lib/stripe-js';
import { toast } from '../../lib/toast-store';
import { Button } from '../ui/button';
import { Spinner } from '../ui/spinner';

export interface CardPaymentProps {
  config: PaymentConfigResponse;
  /** From the server's payment intent or subscription; null when there is nothing to confirm. */
  clientSecret: string | null;
  submitLabel: string;
  /** Where Stripe sends the browser back to when a card needs a redirect (3-D Secure). */
  returnPath: string;
  /** The provider took the payment: complete what was paid for. Handles its own failures. */
  onConfirmed: () => Promise<void>;
  /** Extra words under the demo notice (what the demo payment does here). */
  demoNote?: string;
  /** Called just before Stripe confirms, which may leave the page for the card's bank. */
  beforeRedirect?: () => void;
}

/** Spec §8: the provider's own words, else 'Payment could not be processed'. */
function paymentFailed(message: string | undefined): void {
  toast({
    title: 'Payment Failed',
    description: message || 'Payment could not be processed',
    variant: 'destructive',
  });
}

/** Statuses after which the server can read the payment back and grant what was paid for. */
const confirmedStatuses = new Set(['succeeded', 'processing', 'requires_capture']);

/**
 * The card form of the payment flow (spec §4): disabled until the provider's form has loaded and
 * while the payment is processed. With the demo provider there is no card to ask for: a clearly
 * labelled notice says nothing is charged. With Stripe, its Payment Element (Stripe.js from
 * js.stripe.com, loaded only now) takes the card and confirms the payment.
 */
export function CardPayment({
  config,
  clientSecret,
  submitLabel,
  returnPath,
  onConfirmed,
  demoNote,
  beforeRedirect,
}: CardPaymentProps) {
  const useStripe = !config.demo && !!clientSecret && !!config.publishableKey;
  const mountRef = useRef<HTMLDivElement>(null);
  const stripeRef = useRef<{ stripe: StripeInstance; elements: StripeElements } | undefined>(
    undefined,
  );
  const [ready, setReady] = useState(!useStripe);
  const [loadError, setLoadError] = useState<string | undefined>();
  const [processing, setProcessing] = useState(false);

  useEffect(() => {
    if (!useStripe || !clientSecret || !config.publishableKey) return;
    let cancelled = false;
    let destroy: (() => void) | undefined;
    loadStripe(config.publishableKey)
      .then((stripe) => {
        if (cancelled || !mountRef.current) return;
        const elements = stripe.elements({ clientSecret });
        const element = elements.create('payment');
        element.on('ready', () => setReady(true));
        element.on('loaderror', (event) =>
          setLoadError(
            (event as { error?: { message?: string } }).error?.message ??
              'Unable to load the card form',
          ),
        );
        element.mount(mountRef.current);
        stripeRef.current = { stripe, elements };
        destroy = () => element.destroy();
      })
      .catch((error: unknown) => {
        if (!cancelled) setLoadError(error instanceof Error ? error.message : String(error));
      });
    return () => {
      cancelled = true;
      destroy?.();
    };
  }, [useStripe, clientSecret, config.publishableKey]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!ready || processing) return;
    setProcessing(true);
    try {
      if (useStripe && clientSecret) {
        const loaded = stripeRef.current;
        if (!loaded) throw new Error('Stripe is not loaded');
        const submitted = await loaded.elements.submit();
        if (submitted.error) return paymentFailed(submitted.error.message);
        const options = {
          elements: loaded.elements,
          confirmParams: { return_url: new URL(returnPath, window.location.origin).href },
          redirect: 'if_required' as const,
        };
        // A free first month saves the card with a SetupIntent; anything charged now is a payment.
        beforeRedirect?.();
        let status: string | undefined;
        if (clientSecret.startsWith('seti_')) {
          const result = await loaded.stripe.confirmSetup(options);
          if (result.error) return paymentFailed(result.error.message);
          status = result.setupIntent?.status;
        } else {
          const result = await loaded.stripe.confirmPayment(options);
          if (result.error) return paymentFailed(result.error.message);
          status = result.paymentIntent?.status;
        }
        if (status && !confirmedStatuses.has(status)) {
          toast({
            title: 'Payment Processing Failed',
            description: `The payment is ${status.replaceAll('_', ' ')}.`,
            variant: 'destructive',
          });
          return;
        }
      }
      await onConfirmed();
    } catch {
      toast({
        title: 'Error',
        description: 'An unexpected error occurred during payment processing',
        variant: 'destructive',
      });
    } finally {
      setProcessing(false);
    }
  };

  return (
    <form noValidate onSubmit={(event) => void submit(event)} aria-busy={processing}>
      {config.demo ? (
        <div role="note" className="rounded-md border-2 border-warn bg-amber-50 p-4 text-warn">
          <p className="flex items-center gap-2 font-bold">
            <FlaskConical aria-hidden="true" className="h-5 w-5" />
            Demo payment: no card is charged
          </p>
          <p className="mt-1 text-sm">
            This service runs with a demo payment provider. No card details are asked for and no
            money moves.{demoNote ? ` ${demoNote}` : ''}
          </p>
        </div>
      ) : useStripe ? (
        <fieldset className="grid gap-2">
          <legend className="flex items-center gap-2 font-semibold">
            <CreditCard aria-hidden="true" className="h-5 w-5" />
            Card details
          </legend>
          {!ready && !loadError && <Spinner label="Loading the card form" className="p-4" />}
          {loadError && (
            <p role="alert" className="text-sm font-medium text-bad">
              {loadError}
            </p>
          )}
          <div ref={mountRef} />
        </fieldset>
      ) : null}
      <Button
        type="submit"
        size="lg"
        className="mt-4 w-full"
        disabled={!ready || processing || !!loadError}
      >
        {processing ? 'Processing…' : submitLabel}
      </Button>
      <p role="status" className="mt-2 min-h-5 text-sm text-slate-700">
        {processing ? 'Processing your payment…' : ''}
      </p>
    </form>
  );
}
