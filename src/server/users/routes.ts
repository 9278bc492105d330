import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AccountMessage,
  AccountSettings,
  CurrentUser,
  DeleteAccountRequest,
  EmailChangeConfirmRequest,
  EmailChangeRequest,
  NoFieldsRequest,
  NotificationSettingsRequest,
  PasswordChangeRequest,
  ProfileRequest,
  SessionList,
  SessionResponse,
  TourRequest,
} from '#contract/index.js';
import { toCurrentUser } from '../auth/service.js';
import { accountBilling } from '../billing/lifecycle.js';
import { UnauthorizedError } from '../http-errors.js';
import { fileResponse, signedIn } from '../plugins/openapi.js';
import * as service from './service.js';

export interface UserRoutesOptions {
  deps: service.AccountServiceDeps;
}

/** The signed-in caller, or a 401 the web app answers by sending the visitor to log in. */
function callerOf(request: FastifyRequest): service.AccountCaller {
  if (!request.session) throw new UnauthorizedError('Not signed in');
  return {
    session: request.session,
    ip: request.ip,
    userAgent: request.headers['user-agent'] ?? null,
  };
}

const noStore = (reply: FastifyReply) => reply.header('cache-control', 'private, no-store');

/**
 * The signed-in account. The protected-route gate of the web app calls `/api/user/me` and sends
 * the visitor to log in on a 401; `/api/user` answers the same for the dashboard. Settings calls
 * live under `/api/account/...`; their rules are in service.ts.
 */
export const userRoutes: FastifyPluginAsyncZod<UserRoutesOptions> = async (app, options) => {
  const { deps } = options;

  /** The signed-in person, with the plan state of the organisation they work in. */
  async function currentUser(request: FastifyRequest) {
    const user = request.session!.user;
    return toCurrentUser(
      user,
      await accountBilling(deps.db, request.caller.organisationId ?? user.id),
    );
  }
  // A call described as needing the session is refused to an anonymous caller before its input
  // is checked: a 401, not a 400 about a body nobody may send.
  app.addHook('preValidation', async (request) => {
    if (request.routeOptions.schema?.security === signedIn && !request.session) {
      throw new UnauthorizedError('Not signed in');
    }
  });
  const userPaths = [
    { path: '/api/user/me', operationId: 'getCurrentUser' },
    { path: '/api/user', operationId: 'getUser' },
  ];
  for (const { path, operationId } of userPaths) {
    const schema = {
      operationId,
      summary: 'The signed-in user',
      tags: ['Account'],
      security: signedIn,
      response: { 200: CurrentUser },
    };
    app.get(path, { schema }, async (request, reply) => {
      reply.header('cache-control', 'no-store');
      if (!request.session) throw new UnauthorizedError('Not signed in');
      return currentUser(request);
    });
  }

  app.get(
    '/api/account/settings',
    {
      schema: {
        operationId: 'getAccountSettings',
        summary: "The caller's account settings",
        tags: ['Account'],
        security: signedIn,
        response: { 200: AccountSettings },
      },
    },
    async (request, reply) => {
      noStore(reply);
      return service.getSettings(deps, callerOf(request).session.userId);
    },
  );

  app.put(
    '/api/account/profile',
    {
      schema: {
        operationId: 'updateProfile',
        summary: 'Change the name and company',
        tags: ['Account'],
        security: signedIn,
        body: ProfileRequest,
        response: { 200: AccountSettings },
      },
    },
    async (request, reply) => {
      noStore(reply);
      return service.updateProfile(deps, callerOf(request).session.userId, request.body);
    },
  );

  app.post(
    '/api/account/email',
    {
      schema: {
        operationId: 'requestEmailChange',
        summary: 'Ask to change the e-mail address (confirmed from the new address)',
        tags: ['Account'],
        security: signedIn,
        body: EmailChangeRequest,
        response: { 200: AccountSettings },
      },
    },
    async (request, reply) => {
      noStore(reply);
      return service.requestEmailChange(deps, callerOf(request), request.body);
    },
  );

  // The link from the new address; any browser may open it (the link proves the mailbox).
  app.post(
    '/api/account/email/confirm',
    {
      schema: {
        operationId: 'confirmEmailChange',
        summary: 'Confirm an e-mail change with the token from the link',
        tags: ['Account'],
        body: EmailChangeConfirmRequest,
        response: { 200: AccountMessage.extend({ email: z.string() }) },
      },
    },
    async (request, reply) => {
      noStore(reply);
      const { email } = await service.confirmEmailChange(deps, request.body.token);
      return { success: true, message: 'Your e-mail address is changed.', email };
    },
  );

  app.post(
    '/api/account/password',
    {
      schema: {
        operationId: 'changePassword',
        summary: 'Change the password (ends every other session)',
        tags: ['Account'],
        security: signedIn,
        body: PasswordChangeRequest,
        response: { 200: AccountMessage.extend({ signedOut: z.number() }) },
      },
    },
    async (request, reply) => {
      noStore(reply);
      const { signedOut } = await service.changePassword(deps, callerOf(request), request.body);
      return { success: true, message: 'Password changed', signedOut };
    },
  );

  app.get(
    '/api/account/sessions',
    {
      schema: {
        operationId: 'listSessions',
        summary: "The caller's active sessions",
        tags: ['Account'],
        security: signedIn,
        response: { 200: SessionList },
      },
    },
    async (request, reply) => {
      noStore(reply);
      return { sessions: await service.listSessions(deps, callerOf(request).session) };
    },
  );

  app.delete(
    '/api/account/sessions/:id',
    {
      schema: {
        operationId: 'endSession',
        summary: "End one of the caller's sessions",
        tags: ['Account'],
        security: signedIn,
        params: z.object({ id: z.string().trim().min(1).max(64) }),
        body: NoFieldsRequest,
        response: { 200: AccountMessage },
      },
    },
    async (request, reply) => {
      noStore(reply);
      await service.revokeSession(deps, callerOf(request), request.params.id);
      return { success: true, message: 'Session ended' };
    },
  );

  app.put(
    '/api/account/notifications',
    {
      schema: {
        operationId: 'updateEmailPreferences',
        summary: 'Choose which e-mails to receive',
        tags: ['Account'],
        security: signedIn,
        body: NotificationSettingsRequest,
        response: { 200: AccountSettings },
      },
    },
    async (request, reply) => {
      noStore(reply);
      return service.updateNotifications(deps, callerOf(request).session.userId, request.body);
    },
  );

  app.post(
    '/api/account/tour',
    {
      schema: {
        operationId: 'markTourSeen',
        summary: 'Mark the welcome tour as seen',
        tags: ['Account'],
        security: signedIn,
        body: TourRequest,
        response: { 200: AccountMessage },
      },
    },
    async (request, reply) => {
      noStore(reply);
      await service.completeTour(deps, callerOf(request).session.userId);
      return { success: true, message: 'Tour completed' };
    },
  );

  app.get(
    '/api/account/export',
    {
      schema: {
        operationId: 'exportAccountData',
        summary: 'Download everything stored about the caller (JSON)',
        tags: ['Account'],
        security: signedIn,
        response: { 200: fileResponse('The account data.', ['application/json']) },
      },
    },
    async (request, reply) => {
      const caller = callerOf(request);
      const data = await service.exportData(deps, caller.session.userId);
      const day = new Date().toISOString().slice(0, 10);
      return noStore(reply)
        .header('content-type', 'application/json; charset=utf-8')
        .header('content-disposition', `attachment; filename="conformly-account-${day}.json"`)
        .send(JSON.stringify(data, null, 2));
    },
  );

  app.post(
    '/api/account/delete',
    {
      schema: {
        operationId: 'deleteAccount',
        summary: 'Delete the account and its data',
        tags: ['Account'],
        security: signedIn,
        body: DeleteAccountRequest,
        response: { 200: AccountMessage },
      },
    },
    async (request, reply) => {
      noStore(reply);
      const caller = callerOf(request);
      await service.deleteAccount(deps, caller);
      // The session row went with the account; the cookie goes too.
      await app.sessions.end(request, reply);
      return { success: true, message: 'Your account and its data are deleted.' };
    },
  );

  app.get(
    '/api/session',
    {
      schema: {
        operationId: 'getSession',
        summary: 'Who is signed in (user null for a visitor)',
        tags: ['Account'],
        response: { 200: SessionResponse },
      },
    },
    async (request, reply): Promise<SessionResponse> => {
      reply.header('cache-control', 'no-store');
      return { user: request.session ? await currentUser(request) : null };
    },
  );
};
