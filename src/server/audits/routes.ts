import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AuditProgress,
  AuditRequest,
  AuditResponse,
  DiscoverPagesRequest,
  DiscoveryResult,
} from '#contract/index.js';
import type { ScanRateLimit } from '../plugins/rate-limit.js';
import * as service from './service.js';

export interface AuditRoutesOptions {
  deps: service.AuditServiceDeps;
  /** The scan-start allowance (shared with the scan API): an audit or a discovery is one start. */
  rateLimit: ScanRateLimit;
}

/** Aborts when the client goes away, so an abandoned call stops waiting (the audit goes on). */
function closedSignal(request: FastifyRequest, reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  reply.raw.on('close', () => controller.abort());
  request.raw.on('aborted', () => controller.abort());
  return controller.signal;
}

/** Discovery, smart scan and multi-page audits (spec public-area §7): HTTP only. */
export const auditRoutes: FastifyPluginAsyncZod<AuditRoutesOptions> = async (app, options) => {
  const { deps } = options;
  const startLimit = {
    rateLimit: { max: options.rateLimit.max, timeWindow: options.rateLimit.timeWindowMs },
  };

  app.post(
    '/api/discover-pages',
    {
      config: startLimit,
      schema: {
        operationId: 'discoverPages',
        summary: "Find a site's most important pages",
        description: 'Ranks same-site links by where they appear, the sitemap and their text.',
        tags: ['Audits'],
        body: DiscoverPagesRequest,
        response: { 200: DiscoveryResult },
      },
    },
    async (request, reply) =>
      service.discover(deps, request.body.url, closedSignal(request, reply)),
  );

  // The smart scan's second step and the multi-page audit are the same audit; the spec keeps two
  // paths for its two screens.
  const auditRoutes = [
    {
      path: '/api/smart-scan',
      operationId: 'runSmartScan',
      summary: 'Scan the pages a discovery chose, and wait for the audit',
    },
    {
      path: '/api/multi-page-audit',
      operationId: 'runMultiPageAudit',
      summary: 'Scan up to 10 pages of one site, and wait for the audit',
    },
  ];
  for (const { path, operationId, summary } of auditRoutes) {
    app.post(
      path,
      {
        config: startLimit,
        schema: {
          operationId,
          summary,
          tags: ['Audits'],
          body: AuditRequest,
          response: { 200: AuditResponse },
        },
      },
      async (request, reply) =>
        service.runAudit(deps, request.caller, request.body.urls, closedSignal(request, reply)),
    );
  }

  app.get(
    '/api/audit-progress',
    {
      schema: {
        operationId: 'getAuditProgress',
        summary: "The caller's latest audit: progress per page",
        tags: ['Audits'],
        response: { 200: AuditProgress },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return service.getAuditProgress(deps, request.caller);
    },
  );
};
