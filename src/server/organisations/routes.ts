import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AcceptInvitationResponse,
  ChangeRoleRequest,
  ChooseOrganisationRequest,
  InvitationIdParams,
  InvitationPreview,
  InvitationResponse,
  InvitationTokenParams,
  InviteMemberRequest,
  MemberParams,
  MemberResponse,
  OrganisationsResponse,
  TeamMessageResponse,
  TeamResponse,
} from '#contract/index.js';
import { UnauthorizedError } from '../http-errors.js';
import { signedIn } from '../plugins/openapi.js';
import * as service from './service.js';

/** The signed-in person in the organisation they work in, or a 401 before anything is read. */
function actorOf(request: FastifyRequest): service.OrganisationActor {
  const { caller, session } = request;
  if (!session || !caller.userId || !caller.organisationId) {
    throw new UnauthorizedError('Sign in to manage your organisation');
  }
  return {
    userId: caller.userId,
    email: caller.email ?? session.user.email,
    organisationId: caller.organisationId,
    role: caller.role,
    ip: caller.ip,
  };
}

const noStore = (reply: FastifyReply) => reply.header('cache-control', 'private, no-store');

/**
 * Organisations, members and invitations (ADR 0025): HTTP only, the rules are in service.ts and
 * who may call each route in plugins/access-rules.ts.
 */
export const organisationRoutes: FastifyPluginAsyncZod<{
  deps: service.OrganisationServiceDeps;
}> = async (app, options) => {
  const { deps } = options;
  const doc = { tags: ['Organisation'], security: signedIn };
  // Signed-in routes refuse anonymous callers before their input is checked.
  app.addHook('preValidation', async (request) => {
    if (request.routeOptions.schema?.security === signedIn) actorOf(request);
  });

  app.get(
    '/api/organisations',
    {
      schema: {
        ...doc,
        operationId: 'listOrganisations',
        summary: 'The organisations the signed-in person belongs to, and the one they work in',
        response: { 200: OrganisationsResponse },
      },
    },
    async (request, reply) => {
      noStore(reply);
      const actor = actorOf(request);
      return service.listOrganisations(deps.db, actor.userId, actor.organisationId);
    },
  );

  app.post(
    '/api/organisations/active',
    {
      schema: {
        ...doc,
        operationId: 'chooseOrganisation',
        summary: 'Work in another organisation of yours (null: your own)',
        body: ChooseOrganisationRequest,
        response: { 200: OrganisationsResponse },
      },
    },
    async (request, reply) => {
      noStore(reply);
      actorOf(request);
      return service.chooseActive(deps.db, request.session!, request.body.organisationId);
    },
  );

  app.get(
    '/api/organisation/members',
    {
      schema: {
        ...doc,
        operationId: 'listMembers',
        summary: "The organisation's members and open invitations",
        response: { 200: TeamResponse },
      },
    },
    async (request, reply) => {
      noStore(reply);
      return service.listTeam(deps.db, actorOf(request));
    },
  );

  app.patch(
    '/api/organisation/members/:userId',
    {
      schema: {
        ...doc,
        operationId: 'changeMemberRole',
        summary: "Change a member's role (owners)",
        params: MemberParams,
        body: ChangeRoleRequest,
        response: { 200: MemberResponse },
      },
    },
    async (request, reply) => {
      noStore(reply);
      const member = await service.changeRole(
        deps.db,
        actorOf(request),
        request.params.userId,
        request.body,
      );
      return { member };
    },
  );

  app.delete(
    '/api/organisation/members/:userId',
    {
      schema: {
        ...doc,
        operationId: 'removeMember',
        summary: 'Remove a member (owners), or leave the organisation yourself',
        params: MemberParams,
        response: { 200: TeamMessageResponse },
      },
    },
    async (request, reply) => {
      noStore(reply);
      const { member, left } = await service.removeMember(
        deps.db,
        actorOf(request),
        request.params.userId,
      );
      return {
        success: true as const,
        message: left ? 'You left the organisation.' : `${member.email} was removed.`,
      };
    },
  );

  app.post(
    '/api/organisation/invitations',
    {
      schema: {
        ...doc,
        operationId: 'inviteMember',
        summary: 'Invite someone by e-mail with a role (owners)',
        body: InviteMemberRequest,
        response: { 201: InvitationResponse },
      },
    },
    async (request, reply) => {
      noStore(reply);
      const answer = await service.invite(deps, actorOf(request), request.body);
      return reply.status(201).send(answer);
    },
  );

  app.delete(
    '/api/organisation/invitations/:id',
    {
      schema: {
        ...doc,
        operationId: 'revokeInvitation',
        summary: 'Withdraw an invitation not yet accepted (owners)',
        params: InvitationIdParams,
        response: { 200: TeamMessageResponse },
      },
    },
    async (request, reply) => {
      noStore(reply);
      const { email } = await service.revokeInvitation(
        deps.db,
        actorOf(request),
        request.params.id,
      );
      return { success: true as const, message: `The invitation to ${email} was withdrawn.` };
    },
  );

  app.get(
    '/api/invitations/:token',
    {
      schema: {
        tags: ['Organisation'],
        operationId: 'previewInvitation',
        summary: 'What an invitation link offers: organisation, role, and whether it still works',
        params: InvitationTokenParams,
        response: { 200: InvitationPreview },
      },
    },
    async (request, reply) => {
      noStore(reply);
      return service.previewInvitation(deps.db, request.params.token);
    },
  );

  app.post(
    '/api/invitations/:token/accept',
    {
      schema: {
        ...doc,
        operationId: 'acceptInvitation',
        summary: 'Accept an invitation with the invited address; the browser then works there',
        params: InvitationTokenParams,
        response: { 200: AcceptInvitationResponse },
      },
    },
    async (request, reply) => {
      noStore(reply);
      const { session } = request;
      return service.acceptInvitation(
        deps.db,
        session && {
          userId: session.userId,
          email: session.user.email,
          sessionIdHash: session.idHash,
          ip: request.ip,
        },
        request.params.token,
      );
    },
  );
};
