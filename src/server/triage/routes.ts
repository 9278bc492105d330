import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  DomainPathParams,
  TriageChangeRequest,
  TriageChangeResponse,
  TriageHistoryResponse,
  TriageIssueParams,
  TriageListQuery,
  TriageListResponse,
} from '#contract/index.js';
import { UnauthorizedError } from '../http-errors.js';
import { signedIn as signedInSecurity } from '../plugins/openapi.js';
import * as service from './service.js';

/** The organisation a member or an API token reads, or 401 before anything is read. */
function readerOf(request: FastifyRequest): service.TriageReader {
  const { organisationId, userId } = request.caller;
  if (!organisationId) throw new UnauthorizedError('Log in to triage issues');
  return { organisationId, userId };
}

/** The signed-in person, or 401: a change always names who made it. */
function actorOf(request: FastifyRequest): service.TriageActor {
  const session = request.session;
  const { organisationId } = request.caller;
  if (!session || !organisationId) throw new UnauthorizedError('Log in to triage issues');
  return {
    organisationId,
    userId: session.userId,
    email: session.user.email,
    name: session.user.name || session.user.email,
    role: request.caller.role,
    ip: request.ip,
  };
}

/** Triage of a domain's issues (ADR 0033): HTTP only, the rules are in service.ts. */
export const triageRoutes: FastifyPluginAsyncZod<{ deps: service.TriageServiceDeps }> = async (
  app,
  options,
) => {
  const { deps } = options;
  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'private, no-store');
  });
  const doc = { tags: ['Triage'], security: signedInSecurity };

  app.get(
    '/api/domains/:domain/triage',
    {
      preValidation: async (request) => void readerOf(request),
      schema: {
        ...doc,
        operationId: 'listDomainTriage',
        summary: "The domain's triaged issues, optionally by state or assigned to the caller",
        params: DomainPathParams,
        querystring: TriageListQuery,
        response: { 200: TriageListResponse },
      },
    },
    async (request) =>
      service.listDomainTriage(deps, readerOf(request), request.params.domain, request.query),
  );

  app.get(
    '/api/domains/:domain/triage/:issueKey',
    {
      preValidation: async (request) => void readerOf(request),
      schema: {
        ...doc,
        operationId: 'getIssueTriageHistory',
        summary: "One issue's triage and every change of it",
        params: TriageIssueParams,
        response: { 200: TriageHistoryResponse },
      },
    },
    async (request) =>
      service.readTriageHistory(
        deps,
        readerOf(request),
        request.params.domain,
        request.params.issueKey,
      ),
  );

  app.post(
    '/api/domains/:domain/triage',
    {
      preValidation: async (request) => void actorOf(request),
      schema: {
        ...doc,
        operationId: 'changeIssueTriage',
        summary:
          'Mark one issue or a selection a false positive, accepted (won’t fix) or open, or assign it',
        params: DomainPathParams,
        body: TriageChangeRequest,
        response: { 200: TriageChangeResponse },
      },
    },
    async (request) =>
      service.changeTriage(deps, actorOf(request), request.params.domain, request.body),
  );
};
