import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ApiTokenParams,
  ApiTokensResponse,
  CreateApiTokenRequest,
  CreatedApiTokenResponse,
  NoFieldsRequest,
  RevokedApiTokenResponse,
} from '#contract/index.js';
import { UnauthorizedError } from '../http-errors.js';
import { signedIn } from '../plugins/openapi.js';
import * as service from './service.js';

/** The signed-in owner or admin (plugins/access-rules.ts refuses other roles and every token). */
function actorOf(request: FastifyRequest): service.TokenActor {
  const { caller } = request;
  if (!caller.userId || !caller.email || !caller.organisationId) {
    throw new UnauthorizedError("Log in to manage your organisation's API tokens");
  }
  return {
    userId: caller.userId,
    email: caller.email,
    organisationId: caller.organisationId,
    ip: caller.ip,
  };
}

/** The organisation's API tokens: HTTP only, the rules are in service.ts. */
export const tokenRoutes: FastifyPluginAsyncZod<{ deps: service.TokenServiceDeps }> = async (
  app,
  options,
) => {
  const { deps } = options;
  const doc = { tags: ['Organisation'], security: signedIn };

  // A visitor who is not signed in is told what to do before the input is read.
  app.addHook('preValidation', async (request) => {
    actorOf(request);
  });
  app.addHook('onSend', async (_request, reply) => {
    // A new token's secret above all must stay out of every cache.
    reply.header('cache-control', 'private, no-store');
  });

  app.get(
    '/api/organisation/tokens',
    {
      schema: {
        ...doc,
        operationId: 'listApiTokens',
        summary: "The organisation's API tokens, revoked and expired ones included",
        response: { 200: ApiTokensResponse },
      },
    },
    async (request) => ({ tokens: await service.listTokens(deps, actorOf(request)) }),
  );

  app.post(
    '/api/organisation/tokens',
    {
      schema: {
        ...doc,
        operationId: 'createApiToken',
        summary: 'Create an API token; its secret is in this answer only',
        description:
          'Send the secret as `Authorization: Bearer <secret>`; it works on the routes whose scope it holds, until it expires or is revoked.',
        body: CreateApiTokenRequest,
        response: { 201: CreatedApiTokenResponse },
      },
    },
    async (request, reply) => {
      const created = await service.createToken(deps, actorOf(request), request.body);
      return reply.status(201).send(created);
    },
  );

  app.delete(
    '/api/organisation/tokens/:id',
    {
      schema: {
        ...doc,
        operationId: 'revokeApiToken',
        summary: 'Revoke an API token: its next request is refused',
        params: ApiTokenParams,
        body: NoFieldsRequest,
        response: { 200: RevokedApiTokenResponse },
      },
    },
    async (request) => service.revokeToken(deps, actorOf(request), request.params.id),
  );
};
