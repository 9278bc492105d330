import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { UnsubscribeBody, UnsubscribePreview, UnsubscribeRequest } from '#contract/index.js';
import { InvalidError } from '../http-errors.js';
import { emptyResponse } from '../plugins/openapi.js';
import * as service from './service.js';

export interface AlertRoutesOptions {
  deps: Pick<service.AlertDeps, 'db' | 'signer'>;
}

/**
 * Unsubscribe links of the alert e-mails, usable signed out: the token is the proof (HMAC-signed,
 * unsubscribe.ts). `GET /api/account/unsubscribe` sends a person to the confirm page
 * (`/unsubscribe?token=`), since link checkers open every GET; `POST` unsubscribes: the confirm
 * page's button (JSON) and mail clients' one-click (RFC 8058: `List-Unsubscribe=One-Click` as a
 * form, token in the address). No CSRF token: a mail client has none, and the signed token in the
 * request is what a forger cannot produce.
 */
export const alertRoutes: FastifyPluginAsyncZod<AlertRoutesOptions> = async (app, options) => {
  const { deps } = options;
  // Mail clients post the one-click form; its only field is the fixed "List-Unsubscribe=One-Click".
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 1024 },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
  );

  app.get(
    '/api/account/unsubscribe',
    {
      schema: {
        operationId: 'openUnsubscribeLink',
        summary: 'Open an unsubscribe link (redirects to its confirm page)',
        tags: ['Account'],
        querystring: UnsubscribeRequest.partial(),
        response: { 303: emptyResponse('To the confirm page.') },
      },
    },
    async (request, reply) => {
      const token = request.query.token ?? '';
      return reply
        .header('cache-control', 'no-store')
        .redirect(`/unsubscribe?token=${encodeURIComponent(token)}`, 303);
    },
  );

  app.get(
    '/api/account/unsubscribe/preview',
    {
      schema: {
        operationId: 'previewUnsubscribe',
        summary: 'What an unsubscribe link would turn off',
        tags: ['Account'],
        querystring: UnsubscribeRequest,
        response: { 200: UnsubscribePreview },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return service.previewUnsubscribe(deps, request.query.token);
    },
  );

  app.post(
    '/api/account/unsubscribe',
    {
      config: { csrf: false },
      schema: {
        operationId: 'unsubscribe',
        summary: 'Unsubscribe with a signed link (one-click, no sign-in)',
        tags: ['Account'],
        body: UnsubscribeBody,
        response: { 200: UnsubscribePreview },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const query = request.query as { token?: unknown };
      const parsed = UnsubscribeRequest.safeParse({
        token: request.body?.token ?? query.token ?? '',
      });
      if (!parsed.success) throw new InvalidError(service.invalidUnsubscribeLink);
      return service.unsubscribe(deps, parsed.data.token);
    },
  );
};
