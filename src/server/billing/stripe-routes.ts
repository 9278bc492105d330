import type { FastifyPluginAsync } from 'fastify';
import Stripe from 'stripe';
import { z } from 'zod';
import type { AppDb } from '#db/client.js';
import { InvalidError, NotFoundError } from '../http-errors.js';
import type { PaymentProvider } from './payments.js';
import { StripePaymentProvider } from './stripe-provider.js';
import { handleStripeEvent, type WebhookOutcome } from './stripe-webhook.js';

export interface StripeWebhookRoutesOptions {
  db: AppDb;
  payments: PaymentProvider;
}

/** Stripe's events are small; a megabyte leaves room for an invoice with many lines. */
const webhookBodyLimit = 1024 * 1024;

/**
 * `POST /api/stripe/webhook`: Stripe's events, checked against the endpoint's signing secret.
 * The signature covers the exact bytes Stripe sent, so this plugin (encapsulated: its parsers
 * apply to its own route only) keeps the body raw instead of parsing JSON. No browser calls it,
 * so it is exempt from CSRF; a missing or wrong signature is a 400 and changes nothing.
 */
export const stripeWebhookRoutes: FastifyPluginAsync<StripeWebhookRoutesOptions> = async (
  app,
  options,
) => {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    '*',
    { parseAs: 'buffer', bodyLimit: webhookBodyLimit },
    (_request, body, done) => done(null, body),
  );

  const schema = {
    operationId: 'receiveStripeEvent',
    summary: "Stripe's events: payments, subscriptions, invoices",
    description:
      'Called by Stripe, not by browsers: the `Stripe-Signature` header is checked against ' +
      'STRIPE_WEBHOOK_SECRET over the exact body. 404 unless Stripe payments are configured.',
    tags: ['Webhooks'],
    // Loose: a validated part replaces the request's, and the other headers must stay.
    headers: z.looseObject({
      'stripe-signature': z.string().optional().meta({ description: "Stripe's signature." }),
    }),
    response: {
      200: z.object({
        received: z.literal(true),
        outcome: z.enum([
          'handled',
          'replayed',
          'ignored',
          'unknown_account',
        ] satisfies WebhookOutcome[]),
      }),
    },
  };
  const config = {
    csrf: false,
    charges: true,
    openApiBody: {
      mediaType: 'application/json',
      schema: z.looseObject({ id: z.string(), type: z.string(), data: z.looseObject({}) }),
      description: 'A Stripe event object (https://docs.stripe.com/api/events/object).',
    },
  };
  app.post('/api/stripe/webhook', { schema, config }, async (request, reply) => {
    const provider = options.payments;
    if (!(provider instanceof StripePaymentProvider)) {
      throw new NotFoundError('Card payments through Stripe are not switched on here');
    }
    const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
    const signature = request.headers['stripe-signature'];
    let event: Stripe.Event;
    try {
      event = provider.verifyWebhook(body, typeof signature === 'string' ? signature : undefined);
    } catch (error) {
      if (error instanceof Stripe.errors.StripeSignatureVerificationError) {
        throw new InvalidError('Invalid Stripe signature');
      }
      // Signed by Stripe but not an event (cannot happen with Stripe's own deliveries).
      if (error instanceof SyntaxError) throw new InvalidError('The event is not JSON');
      throw error;
    }
    const outcome = await handleStripeEvent(options.db, event);
    request.log.info({ eventId: event.id, type: event.type, outcome }, 'Stripe webhook event');
    reply.header('cache-control', 'no-store');
    return { received: true, outcome };
  });
};
