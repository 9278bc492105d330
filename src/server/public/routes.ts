import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import {
  DomainAuditResponse,
  DomainParams,
  PublicScanParams,
  PublicScanResponse,
  PublicStatusResponse,
} from '#contract/index.js';
import { emptyResponse } from '../plugins/openapi.js';
import { AnswerCache, sendCached, sendVersioned, type RenderedAnswer } from './cache.js';
import * as service from './service.js';
import { PublicVersions } from './versions.js';

export interface PublicRoutesOptions {
  deps: service.PublicServiceDeps;
  /** Rendered answers kept in this process; a default-sized one when omitted. */
  cache?: AnswerCache;
  /** The domains' public versions; without one, each request reads the version. */
  versions?: PublicVersions;
}

/** A JSON answer checked against its contract once, when rendered, then sent as stored text. */
function json<T extends z.ZodType>(schema: T, value: z.input<T>): RenderedAnswer {
  return {
    contentType: 'application/json; charset=utf-8',
    body: JSON.stringify(schema.parse(value)),
  };
}

/**
 * The public pages' calls (spec public-area §7): read-heavy, cached, no session needed. A
 * domain's audit and status answers are keyed by its public version (see cache.ts): a
 * revalidation is one primary-key read.
 */
export const publicRoutes: FastifyPluginAsyncZod<PublicRoutesOptions> = async (app, options) => {
  const { deps } = options;
  const cache = options.cache ?? new AnswerCache();
  const versions = options.versions ?? new PublicVersions(deps.db);
  const notModified = emptyResponse('The copy the caller holds (If-None-Match) is current.');

  app.get(
    '/api/public/scan/:scanId',
    {
      schema: {
        operationId: 'getPublicScan',
        summary: 'A public scan, as its public audit page shows it',
        tags: ['Public'],
        params: PublicScanParams,
        response: { 200: PublicScanResponse, 304: notModified },
      },
    },
    async (request, reply) =>
      sendCached(request, reply, await service.getPublicScan(deps, request.params.scanId)),
  );

  app.get(
    '/api/audit/:domain',
    {
      schema: {
        operationId: 'getPublicAudit',
        summary: "A monitored domain's public audit page",
        tags: ['Public'],
        params: DomainParams,
        response: { 200: DomainAuditResponse, 304: notModified },
      },
    },
    async (request, reply) => {
      const domain = service.publicDomainOf(request.params.domain);
      return sendVersioned(request, reply, {
        versions,
        cache,
        domain,
        shape: 'audit',
        render: async () => json(DomainAuditResponse, await service.getDomainAudit(deps, domain)),
      });
    },
  );

  app.get(
    '/api/public/status/:domain',
    {
      schema: {
        operationId: 'getPublicStatus',
        summary: "A monitored domain's public status page",
        tags: ['Public'],
        params: DomainParams,
        response: { 200: PublicStatusResponse, 304: notModified },
      },
    },
    async (request, reply) => {
      const domain = service.publicDomainOf(request.params.domain);
      return sendVersioned(request, reply, {
        versions,
        cache,
        domain,
        shape: 'status',
        render: async () => json(PublicStatusResponse, await service.getPublicStatus(deps, domain)),
      });
    },
  );
};
