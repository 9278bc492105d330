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
    if (!request.session) throw new UnauthorizedError('Log in to see your dashboard');
  });
  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'private, no-store');
  });
  app.get('/api/dashboard', { schema: { response: { 200: DashboardOverview } } }, async (request) =>
    service.getOverview(deps, request.caller.userId!),
  );

  app.get(
    '/api/dashboard/analytics',
    { schema: { response: { 200: DashboardAnalytics } } },
    async (request) => service.getAnalytics(deps, request.caller.userId!),
  );

  app.get(
    '/api/dashboard/reports',
    { schema: { querystring: ReportsQuery, response: { 200: ReportsHub } } },
    async (request) => service.getReportsHub(deps, request.caller.userId!, request.query),
  );

  app.get(
    '/api/dashboard/domains/:domain',
    { schema: { params: DomainPathParams, response: { 200: DomainDetail } } },
    async (request) => service.getDomainDetail(deps, request.caller.userId!, request.params.domain),
  );
};
