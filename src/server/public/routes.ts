import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  DomainAuditResponse,
  DomainParams,
  PublicScanParams,
  PublicScanResponse,
  PublicStatusResponse,
} from '#contract/index.js';
import { sendCached } from './cache.js';
import * as service from './service.js';

export interface PublicRoutesOptions {
  deps: service.PublicServiceDeps;
}

/** The public pages' calls (spec public-area §7): read-heavy, cached, no session needed. */
export const publicRoutes: FastifyPluginAsyncZod<PublicRoutesOptions> = async (app, options) => {
  const { deps } = options;

  app.get(
    '/api/public/scan/:scanId',
    { schema: { params: PublicScanParams, response: { 200: PublicScanResponse } } },
    async (request, reply) =>
      sendCached(request, reply, await service.getPublicScan(deps, request.params.scanId)),
  );

  app.get(
    '/api/audit/:domain',
    { schema: { params: DomainParams, response: { 200: DomainAuditResponse } } },
    async (request, reply) =>
      sendCached(request, reply, await service.getDomainAudit(deps, request.params.domain)),
  );

  app.get(
    '/api/public/status/:domain',
    { schema: { params: DomainParams, response: { 200: PublicStatusResponse } } },
    async (request, reply) =>
      sendCached(request, reply, await service.getPublicStatus(deps, request.params.domain)),
  );
};
