import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import {
  CancelSubscriptionResponse,
  ChangeIntervalRequest,
  IntervalChangePreview,
  IntervalChangeResponse,
  IntervalPreviewQuery,
  CheckoutParams,
  CheckoutResponse,
  CorePlanStatusResponse,
  CreatePaymentIntentRequest,
  CreatePaymentIntentResponse,
  CreateSubscriptionResponse,
  NoFieldsRequest,
  PaymentConfigResponse,
  SubscribeRequest,
  SubscribeResponse,
  SubscriptionStatusResponse,
} from '#contract/index.js';
import { UnauthorizedError } from '../http-errors.js';
import { signedIn } from '../plugins/openapi.js';
import * as interval from './interval.js';
import * as lifecycle from './lifecycle.js';
import * as intents from './payment-intents.js';
import * as service from './service.js';

export interface BillingRoutesOptions {
  deps: service.BillingServiceDeps;
  /** STRIPE_PUBLISHABLE_KEY, for the browser's card form in Stripe mode. */
  publishableKey?: string | undefined;
}

/** Signed-in callers only: payments and the plan are an account's. */
async function requireSignIn(request: FastifyRequest): Promise<void> {
  if (!request.session) throw new UnauthorizedError('Log in to manage your subscription');
}

const payerOf = (request: FastifyRequest): intents.Payer => ({
  userId: request.caller.organisationId!,
  email: request.caller.email ?? '',
});

/** Checkout and subscription calls (spec public-area §7 `POST /api/subscribe`). */
export const billingRoutes: FastifyPluginAsyncZod<BillingRoutesOptions> = async (app, options) => {
  const { deps } = options;

  app.get(
    '/api/checkout/:scanId',
    {
      schema: {
        operationId: 'getCheckout',
        summary: 'The checkout of a scanned site: plan, price and what is included',
        tags: ['Billing'],
        params: CheckoutParams,
        response: { 200: CheckoutResponse },
      },
    },
    async (request, reply) => {
      // The answer depends on who asks.
      reply.header('cache-control', 'no-store');
      return service.getCheckout(deps, request.caller, request.params.scanId);
    },
  );

  app.post(
    '/api/subscribe',
    {
      config: { charges: true },
      schema: {
        operationId: 'subscribeDomain',
        summary: 'Subscribe a domain to monitoring (Compliance Shield)',
        tags: ['Billing'],
        security: signedIn,
        body: SubscribeRequest,
        response: { 200: SubscribeResponse },
      },
      // Before the body is read: an anonymous caller learns first that it must log in.
      preValidation: async (request) => {
        if (!request.session) throw new UnauthorizedError('Log in to subscribe');
      },
    },
    async (request) => service.subscribe(deps, request.caller, request.body),
  );

  // The dashboard's payments and plan (spec dashboard-area §4, §7). Answers are the caller's own.
  const own = { preValidation: requireSignIn };
  const noStore = { 'cache-control': 'no-store' };

  app.post(
    '/api/create-payment-intent',
    {
      ...own,
      schema: {
        operationId: 'createPaymentIntent',
        summary: 'Start a payment for a plan or a domain',
        tags: ['Billing'],
        security: signedIn,
        body: CreatePaymentIntentRequest,
        response: { 200: CreatePaymentIntentResponse },
      },
    },
    async (request) => intents.createPaymentIntent(deps, payerOf(request), request.body),
  );

  app.post(
    '/api/create-subscription',
    {
      ...own,
      config: { charges: true },
      schema: {
        operationId: 'createSubscription',
        summary: 'Start the monthly subscription',
        tags: ['Billing'],
        security: signedIn,
        body: NoFieldsRequest,
        response: { 200: CreateSubscriptionResponse },
      },
    },
    async (request) => intents.createSubscription(deps, payerOf(request)),
  );

  app.get(
    '/api/payments/config',
    {
      schema: {
        operationId: 'getPaymentsConfig',
        summary: 'Which payment provider is on (demo or Stripe) and its public key',
        tags: ['Billing'],
        response: { 200: PaymentConfigResponse },
      },
    },
    async () => intents.paymentConfig(deps.payments, options.publishableKey),
  );

  app.get(
    '/api/subscription-status',
    {
      ...own,
      schema: {
        operationId: 'getSubscriptionStatus',
        summary: "The caller's subscription: status, period, grace",
        tags: ['Billing'],
        security: signedIn,
        response: { 200: SubscriptionStatusResponse },
      },
    },
    async (request, reply) => {
      reply.headers(noStore);
      return lifecycle.subscriptionStatus(deps.db, request.caller.organisationId!, new Date());
    },
  );

  app.get(
    '/api/core-plan-status',
    {
      ...own,
      schema: {
        operationId: 'getCorePlanStatus',
        summary: "The caller's core plan and its domains",
        tags: ['Billing'],
        security: signedIn,
        response: { 200: CorePlanStatusResponse },
      },
    },
    async (request, reply) => {
      reply.headers(noStore);
      return lifecycle.corePlanStatus(deps.db, request.caller.organisationId!);
    },
  );

  app.get(
    '/api/billing/interval',
    {
      ...own,
      schema: {
        operationId: 'previewBillingInterval',
        summary: 'What switching to monthly or yearly billing would credit and charge now',
        tags: ['Billing'],
        security: signedIn,
        querystring: IntervalPreviewQuery,
        response: { 200: IntervalChangePreview },
      },
    },
    async (request, reply) => {
      reply.headers(noStore);
      return interval.previewIntervalChange(
        deps,
        request.caller.organisationId!,
        request.query.interval,
      );
    },
  );

  app.post(
    '/api/billing/interval',
    {
      ...own,
      config: { charges: true },
      schema: {
        operationId: 'changeBillingInterval',
        summary: 'Switch to monthly or yearly billing, paying the prorated difference now',
        description:
          'Amounts are the server’s own: the body names only the interval. 409 when the figures changed since they were shown.',
        tags: ['Billing'],
        security: signedIn,
        body: ChangeIntervalRequest,
        response: { 200: IntervalChangeResponse },
      },
    },
    async (request) =>
      interval.changeInterval(
        deps,
        { ...payerOf(request), actor: request.caller },
        request.body.interval,
      ),
  );

  app.post(
    '/api/subscription/cancel',
    {
      ...own,
      schema: {
        operationId: 'cancelSubscription',
        summary: 'Cancel Compliance Shield (monitoring stops; history is kept)',
        tags: ['Billing'],
        security: signedIn,
        body: NoFieldsRequest,
        response: { 200: CancelSubscriptionResponse },
      },
    },
    async (request) => {
      const now = new Date();
      const userId = request.caller.organisationId!;
      const cancelled = await lifecycle.cancelPlan(
        deps.db,
        deps.payments,
        userId,
        now,
        request.caller,
      );
      return {
        message: 'Compliance Shield cancelled. Monitoring stopped; all scan history is kept.',
        archived: cancelled.archived,
        subscription: await lifecycle.subscriptionStatus(deps.db, userId, now),
      };
    },
  );
};
