import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AuditLogFilter, AuditLogPage, AuditLogQuery } from '#contract/index.js';
import type { AppDb } from '#db/client.js';
import { UnauthorizedError } from '../http-errors.js';
import { fileResponse, signedIn } from '../plugins/openapi.js';
import * as service from './service.js';

export interface AuditLogRoutesOptions {
  deps: { db: AppDb };
}

/** The organisation's audit log for its owners and admins (plugins/access-rules.ts). */
export const auditLogRoutes: FastifyPluginAsyncZod<AuditLogRoutesOptions> = async (
  app,
  options,
) => {
  const { db } = options.deps;
  const doc = { tags: ['Audit log'], security: signedIn };

  // Roles are checked by plugins/access.ts; a visitor who is not signed in is told what to do.
  app.addHook('preValidation', async (request) => {
    if (!request.caller.organisationId) {
      throw new UnauthorizedError("Log in to read your organisation's audit log");
    }
  });
  app.addHook('onSend', async (_request, reply) => {
    // The organisation's own record: never cached by anyone.
    reply.header('cache-control', 'private, no-store');
  });

  app.get(
    '/api/organisation/audit-log',
    {
      schema: {
        ...doc,
        operationId: 'listAuditLog',
        summary: "The organisation's audit log: who did what and when, newest first",
        querystring: AuditLogQuery,
        response: { 200: AuditLogPage },
      },
    },
    async (request) => service.readAuditLog(db, request.caller.organisationId!, request.query),
  );

  app.get(
    '/api/organisation/audit-log.csv',
    {
      schema: {
        ...doc,
        operationId: 'exportAuditLog',
        summary: "The organisation's audit log entries that match the filters, as CSV",
        querystring: AuditLogFilter,
        response: {
          200: fileResponse('Time (ISO 8601), actor, action, target, details, IP.', ['text/csv']),
        },
      },
    },
    async (request, reply) => {
      const csv = await service.auditLogCsv(db, request.caller.organisationId!, request.query);
      const day = new Date().toISOString().slice(0, 10);
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="conformly-audit-log-${day}.csv"`)
        .send(csv);
    },
  );
};
