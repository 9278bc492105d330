import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '#config';
import { DemoPaymentProvider, type PaymentProvider } from './payments.js';
import { StripePaymentProvider } from './stripe-provider.js';

/**
 * Which payment provider the service runs with. Apart from payments.ts (the interface and the
 * demo provider), so that the Stripe provider can implement that interface without the two
 * modules importing each other.
 */

/** What picks the provider: config's Stripe settings (src/config.ts reads them). */
export type PaymentProviderConfig = Partial<
  Pick<Config, 'stripeSecretKey' | 'stripeWebhookSecret' | 'stripePublishableKey' | 'stripeApiBase'>
>;

/**
 * The provider the service runs with: Stripe when both its secret key and its webhook signing
 * secret are set (without the webhook secret nothing Stripe reports later could be believed, so
 * one key alone is not enough), otherwise the labelled demo provider. The log says which, and
 * why when only one of the two is set.
 */
export function createPaymentProvider(
  options: PaymentProviderConfig & { log: FastifyBaseLogger },
): PaymentProvider {
  const { stripeSecretKey, stripeWebhookSecret, log } = options;
  if (stripeSecretKey && stripeWebhookSecret) {
    log.info(
      { stripeApi: options.stripeApiBase?.host ?? 'api.stripe.com' },
      'Card payments go through Stripe',
    );
    if (!options.stripePublishableKey) {
      log.warn(
        'STRIPE_PUBLISHABLE_KEY is not set: the card form cannot load Stripe.js, so payments ' +
          'cannot be confirmed in the browser',
      );
    }
    return new StripePaymentProvider({
      secretKey: stripeSecretKey,
      webhookSecret: stripeWebhookSecret,
      ...(options.stripePublishableKey ? { publishableKey: options.stripePublishableKey } : {}),
      ...(options.stripeApiBase ? { apiBase: options.stripeApiBase } : {}),
    });
  }
  if (stripeSecretKey || stripeWebhookSecret) {
    const [set, unset] = stripeSecretKey
      ? ['STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET']
      : ['STRIPE_WEBHOOK_SECRET', 'STRIPE_SECRET_KEY'];
    log.warn(
      `${set} is set but ${unset} is not: Stripe needs both, so payments stay in demo mode ` +
        'and charge nothing',
    );
  } else {
    log.info(
      'Payments run in demo mode: nothing is charged (set STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET for Stripe)',
    );
  }
  return new DemoPaymentProvider();
}
