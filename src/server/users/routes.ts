import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { CurrentUser, SessionResponse } from '#contract/index.js';
import { toCurrentUser } from '../auth/service.js';
import { UnauthorizedError } from '../http-errors.js';

/**
 * The signed-in account. The protected-route gate of the web app calls `/api/user/me` and sends
 * the visitor to log in on a 401; `/api/user` answers the same for the dashboard.
 */
export const userRoutes: FastifyPluginAsyncZod = async (app) => {
  for (const path of ['/api/user/me', '/api/user']) {
    app.get(path, { schema: { response: { 200: CurrentUser } } }, async (request, reply) => {
      reply.header('cache-control', 'no-store');
      if (!request.session) throw new UnauthorizedError('Not signed in');
      return toCurrentUser(request.session.user);
    });
  }

  app.get(
    '/api/session',
    { schema: { response: { 200: SessionResponse } } },
    async (request, reply): Promise<SessionResponse> => {
      reply.header('cache-control', 'no-store');
      return { user: request.session ? toCurrentUser(request.session.user) : null };
    },
  );
};
