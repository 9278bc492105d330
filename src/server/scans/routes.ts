import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AbortScanRequest,
  MessageResponse,
  NoFieldsRequest,
  OptionalScanIdQuery,
  RawScanResult,
  ReportParams,
  ReportQuery,
  ReportResponse,
  ScanIdParams,
  ScanListResponse,
  ScanProgress,
  ScanResults,
  ScanVisibilityRequest,
  ScanVisibilityResponse,
  ShareLinkResponse,
  StartLiveScanRequest,
  StartLiveScanResponse,
  StartScanRequest,
  StartScanResponse,
} from '#contract/index.js';
import { ensureClientId } from '../plugins/csrf.js';
import { emptyResponse, textResponse } from '../plugins/openapi.js';
import type { ScanRateLimit } from '../plugins/rate-limit.js';
import { privateNoStore } from './access.js';
import * as service from './service.js';

export interface ScanRoutesOptions {
  deps: service.ScanServiceDeps;
  rateLimit: ScanRateLimit;
}

/** Aborts when the client goes away, so long waits (analyze, SSE) stop reading the database. */
function closedSignal(request: FastifyRequest, reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  reply.raw.on('close', () => controller.abort());
  request.raw.on('aborted', () => controller.abort());
  return controller.signal;
}

/** The single-page scan API of spec public-area §7: HTTP only, the rules are in service.ts. */
export const scanRoutes: FastifyPluginAsyncZod<ScanRoutesOptions> = async (app, options) => {
  const { deps } = options;
  const startLimit = {
    rateLimit: { max: options.rateLimit.max, timeWindow: options.rateLimit.timeWindowMs },
  };
  const tags = ['Scans'];

  app.post(
    '/api/scans',
    {
      config: startLimit,
      schema: {
        operationId: 'startScan',
        summary: 'Start a scan of one page',
        description: 'Queues the scan and answers at once; follow it with the progress calls.',
        tags,
        body: StartScanRequest,
        response: { 202: StartScanResponse },
      },
    },
    async (request, reply) => {
      const started = await service.startScan(deps, request.caller, request.body.url);
      return reply.status(202).send(started);
    },
  );

  app.get(
    '/api/scans',
    {
      schema: {
        operationId: 'listScans',
        summary: "The caller's scans, newest first",
        tags,
        response: { 200: ScanListResponse },
      },
    },
    async (request) => ({ scans: await service.listScans(deps, request.caller) }),
  );

  app.get(
    '/api/report/:scanId',
    {
      schema: {
        operationId: 'getScanReport',
        summary: "A scan's report",
        description: 'Readable by its owner, by anyone for a public scan, or with its share link.',
        tags: ['Reports'],
        params: ReportParams,
        querystring: ReportQuery,
        response: { 200: ReportResponse },
      },
    },
    async (request, reply) => {
      const report = await service.getReport(deps, request.caller, request.params.scanId, {
        raw: request.query.raw === 'true',
        share: request.query.share,
      });
      // A private scan's report must not stay in shared caches; a public one changes too.
      reply.header('cache-control', privateNoStore);
      return report;
    },
  );

  app.post(
    '/api/scans/:id/share-link',
    {
      schema: {
        operationId: 'createShareLink',
        summary: 'Create a share link for a scan',
        tags,
        params: ScanIdParams,
        body: NoFieldsRequest,
        response: { 201: ShareLinkResponse },
      },
    },
    async (request, reply) => {
      const link = await service.shareScan(deps, request.caller, request.params.id);
      return reply.status(201).header('cache-control', privateNoStore).send(link);
    },
  );

  app.delete(
    '/api/scans/:id/share-link',
    {
      schema: {
        operationId: 'revokeShareLink',
        summary: "Revoke a scan's share link",
        tags,
        params: ScanIdParams,
        body: NoFieldsRequest,
        response: { 204: emptyResponse('The link no longer opens the scan.') },
      },
    },
    async (request, reply) => {
      await service.unshareScan(deps, request.caller, request.params.id);
      return reply.status(204).send();
    },
  );

  app.patch(
    '/api/scans/:id/visibility',
    {
      schema: {
        operationId: 'setScanVisibility',
        summary: 'Make a scan public or private',
        tags,
        params: ScanIdParams,
        body: ScanVisibilityRequest,
        response: { 200: ScanVisibilityResponse },
      },
    },
    async (request) =>
      service.setVisibility(deps, request.caller, request.params.id, request.body.isPublic),
  );

  app.post(
    '/api/analyze',
    {
      config: startLimit,
      schema: {
        operationId: 'analyzePage',
        summary: 'Scan one page and wait for its report',
        tags,
        body: StartScanRequest,
        response: { 200: ReportResponse },
      },
    },
    async (request, reply) =>
      service.analyze(deps, request.caller, request.body.url, closedSignal(request, reply)),
  );

  app.post(
    '/api/raw-scan',
    {
      config: startLimit,
      schema: {
        operationId: 'scanPageRaw',
        summary: "Scan one page and wait for each engine's raw results",
        tags,
        body: StartScanRequest,
        response: { 200: RawScanResult },
      },
    },
    async (request, reply) =>
      service.rawScan(deps, request.caller, request.body.url, closedSignal(request, reply)),
  );

  app.post(
    '/api/real-live-scan/start',
    {
      config: startLimit,
      schema: {
        operationId: 'startLiveScan',
        summary: 'Start a live scan (the scan screens)',
        tags,
        body: StartLiveScanRequest,
        response: { 202: StartLiveScanResponse },
      },
    },
    async (request, reply) => {
      // The five live-scan screens are the spec's demos: their scans never make a site's score.
      const { id } = await service.startScan(deps, request.caller, request.body.url, {
        demo: true,
      });
      return reply.status(202).send({ scanId: id });
    },
  );

  app.get(
    '/api/real-live-scan/progress',
    {
      schema: {
        operationId: 'getLiveScanProgress',
        summary: "A scan's progress: stage, current engine, percent, log",
        description: "Without `scanId`, the caller's latest scan.",
        tags,
        querystring: OptionalScanIdQuery,
        response: { 200: ScanProgress },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', privateNoStore);
      return service.getProgress(deps, request.caller, request.query.scanId, request.query.share);
    },
  );

  app.get(
    '/api/real-live-scan/results',
    {
      schema: {
        operationId: 'getLiveScanResults',
        summary: "A live scan's results",
        description: "Without `scanId`, the caller's latest scan.",
        tags,
        querystring: OptionalScanIdQuery,
        response: { 200: ScanResults },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', privateNoStore);
      return service.getResults(deps, request.caller, request.query.scanId, request.query.share);
    },
  );

  app.post(
    '/api/real-live-scan/abort',
    {
      schema: {
        operationId: 'abortLiveScan',
        summary: 'Abort a running scan',
        tags,
        body: AbortScanRequest,
        response: { 200: MessageResponse },
      },
    },
    async (request) => service.abortScan(deps, request.caller, request.body?.scanId),
  );

  app.post(
    '/api/real-live-scan/reset',
    {
      schema: {
        operationId: 'abortRunningScans',
        summary: "Abort the caller's running scans",
        tags,
        body: NoFieldsRequest,
        response: { 200: MessageResponse },
      },
    },
    async (request) => service.resetScans(deps, request.caller),
  );

  const eventsSchema = {
    operationId: 'streamScanEvents',
    summary: "A scan's progress as Server-Sent Events",
    description: 'One `progress` event per change, until the scan ends.',
    tags,
    params: ScanIdParams,
    response: { 200: textResponse('A stream of `progress` events.', 'text/event-stream') },
  };
  app.get('/api/scans/:id/events', { schema: eventsSchema }, async (request, reply) => {
    const events = await service.progressEvents(
      deps,
      request.caller,
      request.params.id,
      closedSignal(request, reply),
    );
    // Reading progress gives the browser its client id too, like any first contact.
    ensureClientId(request, reply);
    return reply
      .header('content-type', 'text/event-stream; charset=utf-8')
      .header('cache-control', privateNoStore)
      .header('x-accel-buffering', 'no')
      .send(Readable.from(events));
  });
};
