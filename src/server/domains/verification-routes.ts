import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { DomainParams, DomainVerification, VerifyDomainRequest } from '#contract/index.js';
import { TooManyRequestsError, UnauthorizedError } from '../http-errors.js';
import { signedIn } from '../plugins/openapi.js';
import * as service from './verification-service.js';

export interface VerifyRateLimit {
  /** Checks one account may ask for per window. */
  max: number;
  timeWindowMs: number;
}

/**
 * Each check is a DNS lookup and up to four web requests to the site: enough for an owner who
 * publishes the token and tries a few times, too few to use us to hammer a site.
 */
export const defaultVerifyRateLimit: VerifyRateLimit = { max: 10, timeWindowMs: 10 * 60_000 };

export interface VerificationRoutesOptions {
  deps: service.VerificationServiceDeps;
  rateLimit: VerifyRateLimit;
}

/**
 * Ownership verification of the caller's domains (ADR 0007): where it stands and what to publish
 * (GET), and a check now (POST). HTTP only; the rules are in the service.
 */
export const verificationRoutes: FastifyPluginAsyncZod<VerificationRoutesOptions> = async (
  app,
  options,
) => {
  const { deps } = options;

  app.get(
    '/api/domains/:domain/verification',
    {
      schema: {
        operationId: 'getDomainVerification',
        summary: "Whether a domain's ownership is proven, and what to publish to prove it",
        tags: ['Domains'],
        security: signedIn,
        params: DomainParams,
        response: { 200: DomainVerification },
      },
      preValidation: async (request) => {
        if (!request.caller.organisationId)
          throw new UnauthorizedError('Log in to see your domains');
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return service.getOwnVerification(
        deps.db,
        request.caller.organisationId!,
        request.params.domain,
      );
    },
  );

  app.post(
    '/api/domains/:domain/verify',
    {
      config: {
        // Per account (the caller is signed in by then), under its own key.
        rateLimit: {
          max: options.rateLimit.max,
          timeWindow: options.rateLimit.timeWindowMs,
          groupId: 'verify-domain',
          keyGenerator: (request) => request.caller.organisationId ?? request.ip,
          errorResponseBuilder: (_request, context) =>
            new TooManyRequestsError(
              `Too many verification checks; please try again in ${context.after}.`,
            ),
        },
      },
      schema: {
        operationId: 'verifyDomain',
        summary: "Check a domain's ownership now (DNS TXT record, file or meta tag)",
        tags: ['Domains'],
        security: signedIn,
        params: DomainParams,
        // The web client may send no body at all: every method is tried then.
        body: VerifyDomainRequest.nullish(),
        response: { 200: DomainVerification },
      },
      preValidation: async (request) => {
        if (!request.caller.organisationId)
          throw new UnauthorizedError('Log in to verify a domain');
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return service.verifyOwnDomain(
        deps,
        request.caller.organisationId!,
        request.params.domain,
        request.body?.method,
        request.caller,
      );
    },
  );
};
