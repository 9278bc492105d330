import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AddDomainRequest,
  DomainChangeResponse,
  DomainList,
  DomainPathParams,
  PaymentRequiredResponse,
  ReactivateDomainRequest,
} from '#contract/index.js';
import { requireSignIn } from '../../domains/routes.js';
import { signedIn } from '../../plugins/openapi.js';
import * as plans from './service.js';

export interface DomainPlanRoutesOptions {
  deps: plans.DomainPlanDeps;
}

function ownerOf(request: FastifyRequest): plans.Owner {
  const { caller } = request;
  return { userId: caller.organisationId!, email: caller.email ?? '', actor: caller };
}

/** A 402 carries what to pay in its body; every other error goes to the app's error handler. */
async function answer<T>(reply: FastifyReply, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof plans.PaymentRequiredError) {
      return reply.code(402).send(error.body) as never;
    }
    throw error;
  }
}

/**
 * The domain is validated by the service with the spec's messages (§5), so the body schema only
 * bounds it.
 */
const AddDomainBody = AddDomainRequest.extend({
  domain: z.string().max(300, 'A domain is at most 300 characters').optional(),
});

/**
 * A domain's plan (spec dashboard-area §7): list with prices, add, archive, reactivate. HTTP
 * only; the rules are in the service.
 */
export const domainPlanRoutes: FastifyPluginAsyncZod<DomainPlanRoutesOptions> = async (
  app,
  options,
) => {
  const { deps } = options;
  app.addHook('preValidation', requireSignIn);
  app.addHook('onSend', async (_request, reply) => {
    // Every answer is the caller's own.
    reply.header('cache-control', 'no-store');
  });

  const doc = { tags: ['Domains'], security: signedIn };

  app.get(
    '/api/domains',
    {
      schema: {
        ...doc,
        operationId: 'listDomains',
        summary: "The caller's monitored domains, with scores and prices",
        response: { 200: DomainList, 402: PaymentRequiredResponse },
      },
    },
    async (request, reply) =>
      answer(reply, () => plans.listDomains(deps, request.caller.organisationId!)),
  );

  app.post(
    '/api/domains',
    {
      config: { charges: true },
      schema: {
        ...doc,
        operationId: 'addDomain',
        summary: 'Add a domain to monitoring',
        description: 'Answers 402 with what to pay when the domain is beyond the plan.',
        body: AddDomainBody,
        response: { 200: DomainChangeResponse, 402: PaymentRequiredResponse },
      },
    },
    async (request, reply) =>
      answer(reply, () => plans.addDomain(deps, ownerOf(request), request.body)),
  );

  app.delete(
    '/api/domains/:domain',
    {
      schema: {
        ...doc,
        operationId: 'archiveDomain',
        summary: 'Archive a domain (monitoring stops; history is kept)',
        params: DomainPathParams,
        response: { 200: DomainChangeResponse },
      },
    },
    async (request) => plans.archiveDomain(deps, ownerOf(request), request.params.domain),
  );

  app.post(
    '/api/domains/:domain/reactivate',
    {
      config: { charges: true },
      schema: {
        ...doc,
        operationId: 'reactivateDomain',
        summary: 'Reactivate an archived domain',
        description: 'Answers 402 with what to pay when the domain is beyond the plan.',
        params: DomainPathParams,
        body: ReactivateDomainRequest.optional(),
        response: { 200: DomainChangeResponse, 402: PaymentRequiredResponse },
      },
    },
    async (request, reply) =>
      answer(reply, () =>
        plans.reactivateDomain(deps, ownerOf(request), request.params.domain, request.body ?? {}),
      ),
  );
};
