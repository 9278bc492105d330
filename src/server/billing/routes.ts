import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  CheckoutParams,
  CheckoutResponse,
  SubscribeRequest,
  SubscribeResponse,
} from '#contract/index.js';
import { UnauthorizedError } from '../http-errors.js';
import * as service from './service.js';

export interface BillingRoutesOptions {
  deps: service.BillingServiceDeps;
}

/** Checkout and subscription calls (spec public-area §7 `POST /api/subscribe`). */
export const billingRoutes: FastifyPluginAsyncZod<BillingRoutesOptions> = async (app, options) => {
  const { deps } = options;

  app.get(
    '/api/checkout/:scanId',
    { schema: { params: CheckoutParams, response: { 200: CheckoutResponse } } },
    async (request, reply) => {
      // The answer depends on who asks.
      reply.header('cache-control', 'no-store');
      return service.getCheckout(deps, request.caller, request.params.scanId);
    },
  );

  app.post(
    '/api/subscribe',
    {
      schema: { body: SubscribeRequest, response: { 200: SubscribeResponse } },
      // Before the body is read: an anonymous caller learns first that it must log in.
      preValidation: async (request) => {
        if (!request.session) throw new UnauthorizedError('Log in to subscribe');
      },
    },
    async (request) => service.subscribe(deps, request.caller, request.body),
  );
};
