import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { CurrentUser } from '#contract/index.js';
import { toCurrentUser } from '../auth/service.js';
import { UnauthorizedError } from '../http-errors.js';
import { signedIn } from '../plugins/openapi.js';

/**
 * The signed-in account. The protected-route gate of the web app calls `/api/user/me` and sends
 * the visitor to log in on a 401; `/api/user` answers the same for the dashboard.
 */
export const userRoutes: FastifyPluginAsyncZod = async (app) => {
  for (const path of ['/api/user/me', '/api/user']) {
    const schema = {
      summary: 'The signed-in user',
      tags: ['Account'],
      security: signedIn,
      response: { 200: CurrentUser },
    };
    app.get(path, { schema }, async (request, reply) => {
      reply.header('cache-control', 'no-store');
      if (!request.session) throw new UnauthorizedError('Not signed in');
      return toCurrentUser(request.session.user);
    });
  }
};
