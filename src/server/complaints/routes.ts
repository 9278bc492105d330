import type { FastifyError, FastifyRequest } from 'fastify';
import ipaddr from 'ipaddr.js';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AssignComplaintRequest,
  ComplaintDetailsResponse,
  ComplaintIdParams,
  ComplaintListQuery,
  ComplaintListResponse,
  ComplaintReplyRequest,
  ComplaintResponse,
  complaintRequiredMessage,
  SubmitComplaintRequest,
  SubmitComplaintResponse,
  UpdateComplaintNotesRequest,
  UpdateComplaintStatusRequest,
} from '#contract/index.js';
import { InvalidError, TooManyRequestsError, UnauthorizedError } from '../http-errors.js';
import { signedIn as signedInSecurity } from '../plugins/openapi.js';
import * as service from './service.js';

export interface ComplaintRateLimit {
  /** Concerns one address (an IPv6 /64 network counts as one address) may send per window. */
  max: number;
  timeWindowMs: number;
  /** Concerns one domain may receive per window, from all addresses together. */
  perDomainMax?: number;
}

/** Enough for a visitor with several real problems, too few to flood an owner's inbox. */
export const defaultComplaintRateLimit: ComplaintRateLimit = {
  max: 5,
  timeWindowMs: 10 * 60_000,
  perDomainMax: 30,
};

/**
 * The key a sender is counted under: an IPv4 address as it is, an IPv6 address by its /64
 * network, which one subscriber usually holds whole (rotating addresses inside it changes nothing).
 */
export function senderKey(ip: string): string {
  if (!ipaddr.isValid(ip)) return ip;
  const address = ipaddr.process(ip);
  if (address.kind() === 'ipv4') return address.toString();
  const groups = (address as ipaddr.IPv6).parts.slice(0, 4).map((part) => part.toString(16));
  return `${groups.join(':')}::/64`;
}

export interface ComplaintRoutesOptions {
  deps: service.ComplaintServiceDeps;
  rateLimit: ComplaintRateLimit;
}

/**
 * The form leaves out what is required in one go, so the answer says so in the spec's one
 * sentence (§5) instead of repeating it per field; other problems keep their field names.
 */
function invalidComplaint(error: FastifyError): InvalidError | FastifyError {
  if (!hasZodFastifySchemaValidationErrors(error)) return error;
  const messages = error.validation.map((issue) => issue.message);
  if (messages.includes(complaintRequiredMessage))
    return new InvalidError(complaintRequiredMessage);
  return new InvalidError(
    error.validation
      .map((issue) => {
        const field = issue.instancePath.replace(/^\//, '').replaceAll('/', '.');
        return field ? `${field}: ${issue.message}` : issue.message;
      })
      .join('; '),
  );
}

/** Spec public-area §7: POST /api/public/submit-complaint. HTTP only; the rules are in service.ts. */
export const complaintRoutes: FastifyPluginAsyncZod<ComplaintRoutesOptions> = async (
  app,
  options,
) => {
  const { deps } = options;

  // Rethrown errors reach the app's one error handler (plugins/errors.ts).
  app.setErrorHandler((error: FastifyError) => {
    throw invalidComplaint(error);
  });

  app.post(
    '/api/public/submit-complaint',
    {
      config: {
        // Counted after validation and CSRF, under its own key: sending concerns does not use up
        // the scan allowance of the same address, nor the other way round.
        rateLimit: {
          max: options.rateLimit.max,
          timeWindow: options.rateLimit.timeWindowMs,
          groupId: 'submit-complaint',
          keyGenerator: (request) => senderKey(request.ip),
          errorResponseBuilder: (_request, context) =>
            new TooManyRequestsError(
              `Too many concerns sent from your address; please try again in ${context.after}.`,
            ),
        },
      },
      schema: {
        operationId: 'submitComplaint',
        summary: "Send an accessibility concern to a monitored domain's owner",
        description: 'From the public status page; the owner is e-mailed.',
        tags: ['Complaints'],
        body: SubmitComplaintRequest,
        response: { 201: SubmitComplaintResponse },
      },
    },
    async (request, reply) => {
      const filed = await service.submitComplaint(deps, request.body, {
        perDomainMax: options.rateLimit.perDomainMax,
        windowMs: options.rateLimit.timeWindowMs,
      });
      return reply.status(201).send({ success: true, ...filed });
    },
  );
};

/** The organisation whose inbox a member or an API token reads, or 401 before anything is read. */
function readerOf(request: FastifyRequest): service.ComplaintReader {
  const { organisationId } = request.caller;
  if (!organisationId) throw new UnauthorizedError('Log in to manage complaints');
  return { organisationId };
}

/** The signed-in account, or 401 before anything else is read. */
function actorOf(request: FastifyRequest): service.ComplaintActor {
  const session = request.session;
  if (!session) throw new UnauthorizedError('Log in to manage complaints');
  return {
    organisationId: request.caller.organisationId ?? session.userId,
    userId: session.userId,
    name: session.user.name || session.user.email,
    role: request.caller.role,
    email: session.user.email,
    ip: request.ip,
  };
}

/**
 * The owner's inbox (spec dashboard-area §7 `/api/complaints*`): HTTP only, the rules are in
 * service.ts. Answers depend on who asks, so none is kept by a cache.
 */
export const complaintInboxRoutes: FastifyPluginAsyncZod<{
  deps: service.ComplaintServiceDeps;
}> = async (app, options) => {
  const { deps } = options;
  const signedIn = {
    preValidation: async (request: FastifyRequest) => {
      actorOf(request);
    },
  };
  const reading = {
    preValidation: async (request: FastifyRequest) => {
      readerOf(request);
    },
  };
  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'private, no-store');
  });
  const doc = { tags: ['Complaints'], security: signedInSecurity };

  app.get(
    '/api/complaints',
    {
      ...reading,
      schema: {
        ...doc,
        operationId: 'listComplaints',
        summary: "The complaints about the caller's domains, filtered and paged",
        querystring: ComplaintListQuery,
        response: { 200: ComplaintListResponse },
      },
    },
    async (request) =>
      service.listComplaints(
        deps,
        { ...readerOf(request), userId: request.caller.userId },
        request.query,
      ),
  );

  app.get(
    '/api/complaints/:id',
    {
      ...reading,
      schema: {
        ...doc,
        operationId: 'getComplaint',
        summary: 'One complaint with its replies and history',
        params: ComplaintIdParams,
        response: { 200: ComplaintDetailsResponse },
      },
    },
    async (request) => service.getComplaint(deps, readerOf(request), request.params.id),
  );

  app.patch(
    '/api/complaints/:id/status',
    {
      ...signedIn,
      schema: {
        ...doc,
        operationId: 'setComplaintStatus',
        summary: "Change a complaint's status",
        params: ComplaintIdParams,
        body: UpdateComplaintStatusRequest,
        response: { 200: ComplaintResponse },
      },
    },
    async (request) => ({
      complaint: await service.updateStatus(
        deps,
        actorOf(request),
        request.params.id,
        request.body,
      ),
    }),
  );

  app.patch(
    '/api/complaints/:id/notes',
    {
      ...signedIn,
      schema: {
        ...doc,
        operationId: 'saveComplaintNotes',
        summary: "Save a complaint's internal notes",
        params: ComplaintIdParams,
        body: UpdateComplaintNotesRequest,
        response: { 200: ComplaintResponse },
      },
    },
    async (request) => ({
      complaint: await service.updateNotes(deps, actorOf(request), request.params.id, request.body),
    }),
  );

  app.patch(
    '/api/complaints/:id/assignee',
    {
      ...signedIn,
      schema: {
        ...doc,
        operationId: 'assignComplaint',
        summary: 'Assign a complaint to someone',
        params: ComplaintIdParams,
        body: AssignComplaintRequest,
        response: { 200: ComplaintResponse },
      },
    },
    async (request) => ({
      complaint: await service.assign(deps, actorOf(request), request.params.id, request.body),
    }),
  );

  app.post(
    '/api/complaints/:id/reply',
    {
      ...signedIn,
      schema: {
        ...doc,
        operationId: 'replyToComplaint',
        summary: 'Add a reply (e-mailed to the visitor) or an internal note to a complaint',
        params: ComplaintIdParams,
        body: ComplaintReplyRequest,
        response: { 201: ComplaintResponse },
      },
    },
    async (request, reply) => {
      const complaint = await service.reply(
        deps,
        actorOf(request),
        request.params.id,
        request.body,
      );
      return reply.status(201).send({ complaint });
    },
  );
};
