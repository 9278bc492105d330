/**
 * Stripe.js, loaded from js.stripe.com by the browser only in Stripe mode (DESIGN.md: never
 * bundled; the demo provider needs nothing external). Only the few calls the card form makes are
 * typed here.
 */

export interface StripeError {
  message?: string;
}

export interface StripePaymentElement {
  mount(target: HTMLElement): void;
  destroy(): void;
  on(event: 'ready' | 'loaderror', handler: (event: { error?: StripeError }) => void): void;
}

export interface StripeElements {
  create(type: 'payment', options?: Record<string, unknown>): StripePaymentElement;
  submit(): Promise<{ error?: StripeError }>;
}

interface ConfirmOptions {
  elements: StripeElements;
  clientSecret: string;
  confirmParams: { return_url: string };
  redirect: 'if_required';
}

export interface Stripe {
  elements(options: { clientSecret: string; appearance?: Record<string, unknown> }): StripeElements;
  confirmPayment(
    options: ConfirmOptions,
  ): Promise<{ error?: StripeError; paymentIntent?: { id: string; status: string } }>;
  confirmSetup(
    options: ConfirmOptions,
  ): Promise<{ error?: StripeError; setupIntent?: { id: string; status: string } }>;
}

type StripeFactory = (publishableKey: string) => Stripe;

declare global {
  interface Window {
    Stripe?: StripeFactory;
  }
}

export const stripeJsUrl = 'https://js.stripe.com/v3/';

let factory: Promise<StripeFactory> | undefined;

function loadScript(): Promise<StripeFactory> {
  if (window.Stripe) return Promise.resolve(window.Stripe);
  return new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = stripeJsUrl;
    script.async = true;
    script.addEventListener('load', () =>
      window.Stripe ? resolve(window.Stripe) : reject(new Error('Stripe.js did not start')),
    );
    script.addEventListener('error', () => reject(new Error('Stripe.js could not be loaded')));
    document.head.append(script);
  });
}

/** Stripe for this publishable key; the script tag is added on the first call only. */
export async function loadStripe(publishableKey: string): Promise<Stripe> {
  factory ??= loadScript().catch((error: unknown) => {
    factory = undefined;
    throw error;
  });
  return (await factory)(publishableKey);
}
