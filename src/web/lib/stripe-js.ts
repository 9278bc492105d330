/**
 * Stripe.js, loaded from Stripe by the browser and only in Stripe mode (DESIGN.md: never bundled;
 * Stripe asks that it always come from js.stripe.com). The demo provider's card form never calls
 * this, so a demo install loads nothing from outside.
 *
 *   const stripe = await loadStripe(config.publishableKey);
 *   const elements = stripe.elements({ clientSecret });
 *   elements.create('payment').mount(node);
 *   await stripe.confirmPayment({ elements, confirmParams: { return_url }, redirect: 'if_required' });
 *
 * The types below cover the calls the card form makes; Stripe.js has many more.
 */

export const stripeJsUrl = 'https://js.stripe.com/v3/';

export interface StripeError {
  type: string;
  code?: string;
  message?: string;
}

export interface StripeElement {
  mount(target: string | HTMLElement): void;
  unmount(): void;
  destroy(): void;
  on(event: 'ready' | 'change' | 'loaderror', handler: (event: unknown) => void): StripeElement;
}

export interface StripeElements {
  create(type: 'payment', options?: Record<string, unknown>): StripeElement;
  /** Checks the form and collects wallet details; call before confirming. */
  submit(): Promise<{ error?: StripeError }>;
}

export interface ConfirmOptions {
  elements: StripeElements;
  confirmParams: { return_url: string };
  /** Stay on the page unless the card needs a redirect (3-D Secure by redirect, bank pages). */
  redirect: 'if_required';
}

export interface StripeInstance {
  elements(options: { clientSecret: string; appearance?: Record<string, unknown> }): StripeElements;
  /** Pays a PaymentIntent (one-time payments). */
  confirmPayment(
    options: ConfirmOptions,
  ): Promise<{ error?: StripeError; paymentIntent?: { id: string; status: string } }>;
  /** Keeps a card on a SetupIntent (the subscription's card for the months after the free one). */
  confirmSetup(
    options: ConfirmOptions,
  ): Promise<{ error?: StripeError; setupIntent?: { id: string; status: string } }>;
}

type StripeConstructor = (publishableKey: string) => StripeInstance;

declare global {
  interface Window {
    Stripe?: StripeConstructor;
  }
}

/** One script per page: every caller shares the load in progress or done. */
let loading: Promise<StripeConstructor> | undefined;
const instances = new Map<string, StripeInstance>();

function injectScript(url: string): Promise<StripeConstructor> {
  return new Promise((resolve, reject) => {
    const failed = () => reject(new Error('Stripe.js could not be loaded. Please try again.'));
    const script = document.createElement('script');
    script.src = url;
    script.async = true;
    script.addEventListener('load', () => {
      if (window.Stripe) resolve(window.Stripe);
      else failed();
    });
    script.addEventListener('error', () => {
      // A later attempt adds a fresh tag rather than waiting on this dead one.
      script.remove();
      failed();
    });
    document.head.appendChild(script);
  });
}

/**
 * Stripe.js for `publishableKey`, loading the script on first use. Rejects with a message for
 * the payer when the script cannot load (offline, blocked); the next call tries again.
 */
export function loadStripe(publishableKey: string, url = stripeJsUrl): Promise<StripeInstance> {
  if (!publishableKey) {
    return Promise.reject(new Error('Card payments are not set up: no Stripe publishable key.'));
  }
  loading ??= window.Stripe ? Promise.resolve(window.Stripe) : injectScript(url);
  const current = loading;
  current.catch(() => {
    if (loading === current) loading = undefined;
  });
  return current.then((Stripe) => {
    let instance = instances.get(publishableKey);
    if (!instance) {
      instance = Stripe(publishableKey);
      instances.set(publishableKey, instance);
    }
    return instance;
  });
}
