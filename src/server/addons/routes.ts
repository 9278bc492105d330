import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AddOnCatalogueResponse,
  AddOnListQuery,
  AddOnPagesQuery,
  AddOnPagesResponse,
  AddOnParams,
  AddOnPurchaseRequest,
  AddOnPurchaseResponse,
  AddOnRefundRequest,
  PurchasedAddOn,
} from '#contract/index.js';
import { TooManyRequestsError } from '../http-errors.js';
import { docxMediaType, fileResponse, signedIn } from '../plugins/openapi.js';
import * as service from './service.js';

export interface AddOnRoutesOptions {
  deps: service.AddOnServiceDeps;
  /** Downloads one address may make per window; a PDF holds a browser tab while it prints. */
  downloadRateLimit?: { max: number; timeWindowMs: number };
}

/** The add-ons panel's calls (spec dashboard-area §7 `POST /api/add-ons/purchase`). */
export const addOnRoutes: FastifyPluginAsyncZod<AddOnRoutesOptions> = async (app, options) => {
  const { deps } = options;
  const downloads = options.downloadRateLimit ?? { max: 20, timeWindowMs: 60_000 };

  // Each answer depends on who asks.
  app.addHook('onSend', async (_request, reply) => {
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'private, no-store');
  });

  app.get(
    '/api/add-ons/catalogue',
    {
      schema: {
        operationId: 'listAddOnCatalogue',
        summary: 'The add-ons on sale, with their prices',
        tags: ['Add-ons'],
        response: { 200: AddOnCatalogueResponse },
      },
    },
    async () => service.catalogue(deps),
  );

  app.get(
    '/api/add-ons',
    {
      schema: {
        operationId: 'listAddOns',
        summary: 'The add-ons the caller bought',
        tags: ['Add-ons'],
        security: signedIn,
        querystring: AddOnListQuery,
        response: { 200: z.array(PurchasedAddOn) },
      },
    },
    async (request) => service.listAddOns(deps, request.caller, request.query.domain),
  );

  app.get(
    '/api/add-ons/pages',
    {
      schema: {
        operationId: 'listAddOnPages',
        summary: "A domain's scanned pages an add-on can cover",
        tags: ['Add-ons'],
        security: signedIn,
        querystring: AddOnPagesQuery,
        response: { 200: AddOnPagesResponse },
      },
    },
    async (request) => service.pagesFor(deps, request.caller, request.query.domain),
  );

  app.post(
    '/api/add-ons/purchase',
    {
      config: { charges: true },
      schema: {
        operationId: 'purchaseAddOn',
        summary: 'Buy an add-on for a domain',
        tags: ['Add-ons'],
        security: signedIn,
        body: AddOnPurchaseRequest,
        response: { 200: AddOnPurchaseResponse },
      },
      // Before the body is read: an anonymous caller learns first that it must log in.
      preValidation: async (request) => {
        if (!request.session) throw service.loginRequired();
      },
    },
    async (request) => service.purchase(deps, request.caller, request.body),
  );

  app.post(
    '/api/add-ons/:id/refund',
    {
      // A refund issues a credit note: it is e-mailed once this answers (app.ts).
      config: { charges: true },
      schema: {
        operationId: 'refundAddOn',
        summary: 'Ask for the refund of a report rejected in a review (within 30 days)',
        description:
          'Granted at once, with no human review: the charge is refunded through the payment ' +
          'provider and a credit note is issued. 409 once refunded or past the window.',
        tags: ['Add-ons'],
        security: signedIn,
        params: AddOnParams,
        body: AddOnRefundRequest,
        response: { 200: PurchasedAddOn },
      },
      // Before the body is read: an anonymous caller learns first that it must log in.
      preValidation: async (request) => {
        if (!request.session) throw service.loginRequired();
      },
    },
    async (request) => service.askForRefund(deps, request.caller, request.params.id, request.body),
  );

  app.get(
    '/api/add-ons/:id/download',
    {
      config: {
        rateLimit: {
          max: downloads.max,
          timeWindow: downloads.timeWindowMs,
          groupId: 'add-on-download',
          errorResponseBuilder: (_request, context) =>
            new TooManyRequestsError(
              `Too many downloads from your address; try again in ${context.after}.`,
            ),
        },
      },
      schema: {
        operationId: 'downloadAddOn',
        summary: 'Download a bought add-on document',
        tags: ['Add-ons'],
        security: signedIn,
        params: AddOnParams,
        response: {
          200: fileResponse('The document, as an attachment.', [
            'application/pdf',
            'application/json',
            docxMediaType,
          ]),
        },
      },
    },
    async (request, reply) => {
      const file = await service.download(deps, request.caller, request.params.id);
      return reply
        .header('content-type', file.contentType)
        .header('content-disposition', `attachment; filename="${file.fileName}"`)
        .header('x-content-type-options', 'nosniff')
        .send(file.body);
    },
  );
};
