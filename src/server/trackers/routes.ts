import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  DomainPathParams,
  IntegrationSettings,
  JiraCsvQuery,
  TrackerExportRequest,
  TrackerExportResult,
  UpdateIntegrationsRequest,
  WebhookDelivery,
} from '#contract/index.js';
import { UnauthorizedError } from '../http-errors.js';
import { fileResponse, signedIn } from '../plugins/openapi.js';
import * as service from './service.js';

export interface TrackerRoutesOptions {
  deps: service.TrackerDeps;
}

/**
 * Settings → Integrations (owners and admins) and sending a domain's issues to GitHub or a Jira
 * CSV (plugins/access-rules.ts says who may call each).
 */
export const trackerRoutes: FastifyPluginAsyncZod<TrackerRoutesOptions> = async (app, options) => {
  const { deps } = options;
  const doc = { tags: ['Integrations'], security: signedIn };

  app.addHook('preValidation', async (request) => {
    if (!request.caller.organisationId) {
      throw new UnauthorizedError("Log in to use your organisation's integrations");
    }
  });
  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'private, no-store');
  });

  app.get(
    '/api/organisation/integrations',
    {
      schema: {
        ...doc,
        operationId: 'getIntegrations',
        summary: 'GitHub and webhook settings (secrets only as set or not) and recent deliveries',
        response: { 200: IntegrationSettings },
      },
    },
    async (request) => service.readIntegrations(deps, request.caller.organisationId!),
  );

  app.put(
    '/api/organisation/integrations',
    {
      schema: {
        ...doc,
        operationId: 'updateIntegrations',
        summary: 'Change GitHub and webhook settings; a field left out stays as it is',
        body: UpdateIntegrationsRequest,
        response: { 200: IntegrationSettings },
      },
    },
    async (request) =>
      service.updateIntegrations(
        deps,
        request.caller.organisationId!,
        request.body,
        request.caller,
      ),
  );

  app.post(
    '/api/organisation/integrations/webhook-test',
    {
      schema: {
        ...doc,
        operationId: 'testWebhook',
        summary: 'Send a signed test event to the webhook and record the attempt',
        response: { 200: WebhookDelivery },
      },
    },
    async (request) => service.sendTestWebhook(deps, request.caller.organisationId!),
  );

  app.post(
    '/api/domains/:domain/tracker/github',
    {
      schema: {
        ...doc,
        operationId: 'createGithubIssues',
        summary:
          'Create a GitHub issue for each chosen issue of the latest site audit; one sent before keeps its link',
        params: DomainPathParams,
        body: TrackerExportRequest,
        response: { 200: TrackerExportResult },
      },
    },
    async (request) =>
      service.exportToGithub(
        deps,
        request.caller.organisationId!,
        request.params.domain,
        request.body.issueKeys,
        request.caller.userId ?? null,
      ),
  );

  app.get(
    '/api/domains/:domain/exports/jira.csv',
    {
      schema: {
        ...doc,
        operationId: 'exportJiraCsv',
        summary: "The chosen issues as a CSV for Jira's importer (Summary, Priority, Labels...)",
        params: DomainPathParams,
        querystring: JiraCsvQuery,
        response: {
          200: fileResponse(
            'One row per issue: Summary, Issue Type, Priority, Description, Labels.',
            ['text/csv'],
          ),
        },
      },
    },
    async (request, reply) => {
      const keys = request.query.keys
        .split(',')
        .map((key) => key.trim())
        .filter(Boolean);
      const csv = await service.jiraCsv(
        deps,
        request.caller.organisationId!,
        request.params.domain,
        keys,
      );
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header(
          'content-disposition',
          `attachment; filename="conformly-jira-${request.params.domain.replace(/[^A-Za-z0-9.-]/g, '_')}.csv"`,
        )
        .send(csv);
    },
  );
};
