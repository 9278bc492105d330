import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  DomainNames,
  DomainPathParams,
  MonitoringSettings,
  ScanNowResponse,
  SiteAuditDetails,
  SiteAuditList,
  RulePagesView,
  SiteAuditParams,
  UpdateMonitoringRequest,
} from '#contract/index.js';
import type { AppDb } from '#db/client.js';
import { UnauthorizedError } from '../http-errors.js';
import { signedIn } from '../plugins/openapi.js';
import * as management from './management.js';
import { readRulePages } from './rule-pages.js';
import * as monitoring from './site-monitoring.js';

export interface DomainRoutesOptions {
  deps: { db: AppDb; publicUrl: string };
  monitoring: monitoring.SiteMonitoringDeps;
}

/**
 * A member or an API token of an organisation (access-rules.ts says which routes a token may
 * call); anonymous visitors get a 401 before their input is read.
 */
export async function requireSignIn(request: FastifyRequest): Promise<void> {
  if (!request.caller.organisationId) throw new UnauthorizedError('Log in to manage your domains');
}

/** A 429 carries when to try again; every other error goes to the app's error handler. */
async function answer<T>(reply: FastifyReply, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof monitoring.ScanNowTooSoonError) {
      const seconds = Math.max(1, Math.ceil((error.retryAt.getTime() - Date.now()) / 1000));
      return reply
        .code(429)
        .header('retry-after', String(seconds))
        .send({ message: error.message }) as never;
    }
    throw error;
  }
}

/**
 * The caller's domains beyond their plan (billing/domain-plans has list, add, archive and
 * reactivate): their names, site audits and their settings, and the rules failing on their pages.
 */
export const domainRoutes: FastifyPluginAsyncZod<DomainRoutesOptions> = async (app, options) => {
  const { deps } = options;
  app.addHook('preValidation', requireSignIn);
  app.addHook('onSend', async (_request, reply) => {
    // Every answer is the caller's own.
    reply.header('cache-control', 'no-store');
  });

  const doc = { tags: ['Domains'], security: signedIn };

  app.get(
    '/api/domains/list',
    {
      schema: {
        ...doc,
        operationId: 'listDomainNames',
        summary: "The names of the caller's domains",
        response: { 200: DomainNames },
      },
    },
    async (request) => management.listDomainNames(deps.db, request.caller.organisationId!),
  );

  const message = z.object({ message: z.string() });

  app.get(
    '/api/domains/:domain/monitoring',
    {
      schema: {
        ...doc,
        operationId: 'getDomainMonitoring',
        summary: "The domain's site audits, newest first, and their settings",
        params: DomainPathParams,
        querystring: z.strictObject({
          limit: z.coerce.number().int().min(1).max(100).optional(),
        }),
        response: { 200: SiteAuditList },
      },
    },
    async (request) =>
      monitoring.readMonitoring(
        options.monitoring,
        request.caller.organisationId!,
        request.params.domain,
        request.query.limit,
      ),
  );

  app.patch(
    '/api/domains/:domain/monitoring',
    {
      schema: {
        ...doc,
        operationId: 'updateDomainMonitoring',
        summary:
          'Set where site audits start, pages they always include and patterns they leave out',
        params: DomainPathParams,
        body: UpdateMonitoringRequest,
        response: { 200: MonitoringSettings },
      },
    },
    async (request) =>
      monitoring.updateMonitoring(
        options.monitoring,
        request.caller.organisationId!,
        request.params.domain,
        request.body,
        request.caller,
      ),
  );

  app.post(
    '/api/domains/:domain/audits',
    {
      schema: {
        ...doc,
        operationId: 'startSiteAudit',
        summary: 'Scan now: start a site audit of the domain',
        description:
          'One audit of a domain at a time (409) and at most one requested per hour (429 with Retry-After).',
        params: DomainPathParams,
        body: z.strictObject({}).nullish(),
        response: { 202: ScanNowResponse, 409: message, 429: message },
      },
    },
    async (request, reply) =>
      answer(reply, async () => {
        const started = await monitoring.scanNow(
          options.monitoring,
          request.caller.organisationId!,
          request.params.domain,
        );
        return reply.code(202).send(started);
      }),
  );

  app.get(
    '/api/domains/:domain/audits/:auditId',
    {
      schema: {
        ...doc,
        operationId: 'getSiteAudit',
        summary: 'One site audit of the domain with its pages and what changed on each',
        params: SiteAuditParams,
        response: { 200: SiteAuditDetails },
      },
    },
    async (request) =>
      monitoring.readAudit(
        options.monitoring,
        request.caller.organisationId!,
        request.params.domain,
        request.params.auditId,
      ),
  );

  app.get(
    '/api/domains/:domain/rules',
    {
      schema: {
        ...doc,
        operationId: 'getDomainRulePages',
        summary:
          "Each rule failing in the latest site audit with every page and element, its trend, and each page's passed and not-applicable checks",
        params: DomainPathParams,
        response: { 200: RulePagesView },
      },
    },
    async (request) =>
      readRulePages(options.monitoring.db, request.caller.organisationId!, request.params.domain),
  );
};
