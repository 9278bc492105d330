import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  DashboardAnalytics,
  DashboardOverview,
  DomainDetail,
  DomainPathParams,
  ReportsHub,
  ReportsQuery,
} from '#contract/index.js';
import { UnauthorizedError } from '../http-errors.js';
import { signedIn } from '../plugins/openapi.js';
import * as service from './service.js';

export interface DashboardRoutesOptions {
  deps: service.DashboardDeps;
}

/**
 * The dashboard's answers (overview, a domain, analytics, reports hub): signed-in callers only
 * (401), with Compliance Shield (402), each the caller's own and never cached.
 */
export const dashboardRoutes: FastifyPluginAsyncZod<DashboardRoutesOptions> = async (
  app,
  options,
) => {
  const { deps } = options;
  app.addHook('preValidation', async (request) => {
    // A member, or an API token with the route's scope (access-rules.ts).
    if (!request.caller.organisationId) {
      throw new UnauthorizedError('Log in to see your dashboard');
    }
  });
  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'private, no-store');
  });
  app.get(
    '/api/dashboard',
    {
      schema: {
        operationId: 'getDashboard',
        summary: "The dashboard overview of the caller's domains and scans",
        tags: ['Dashboard'],
        security: signedIn,
        response: { 200: DashboardOverview },
      },
    },
    async (request) => service.getOverview(deps, request.caller.organisationId!),
  );

  app.get(
    '/api/dashboard/analytics',
    {
      schema: {
        operationId: 'getDashboardAnalytics',
        summary: "Analytics across the caller's domains",
        tags: ['Dashboard'],
        security: signedIn,
        response: { 200: DashboardAnalytics },
      },
    },
    async (request) => service.getAnalytics(deps, request.caller.organisationId!),
  );

  app.get(
    '/api/dashboard/reports',
    {
      schema: {
        operationId: 'listReports',
        summary: "Every document of the caller's scans and domains, newest first",
        tags: ['Dashboard'],
        security: signedIn,
        querystring: ReportsQuery,
        response: { 200: ReportsHub },
      },
    },
    async (request) => service.getReportsHub(deps, request.caller.organisationId!, request.query),
  );

  app.get(
    '/api/dashboard/domains/:domain',
    {
      schema: {
        operationId: 'getDomainHistory',
        summary: 'One domain: score history, pages, issues new and fixed since the last scan',
        tags: ['Dashboard'],
        security: signedIn,
        params: DomainPathParams,
        response: { 200: DomainDetail },
      },
    },
    async (request) =>
      service.getDomainDetail(deps, request.caller.organisationId!, request.params.domain),
  );
};
