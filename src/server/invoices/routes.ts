import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  BuyerDetails,
  BuyerDetailsUpdate,
  CardResponse,
  ConfirmCardInput,
  InvoiceListResponse,
  InvoiceParams,
  ReplaceCardInput,
  ReplaceCardResponse,
} from '#contract/index.js';
import type { AppDb } from '#db/client.js';
import type { Mailer } from '#email/mailer.js';
import type { PagePool } from '#scanner';
import { cardOnFile, confirmCard, replaceCard } from './card.js';
import type { PaymentProvider } from '../billing/payments.js';
import { UnauthorizedError } from '../http-errors.js';
import { fileResponse, signedIn } from '../plugins/openapi.js';
import * as service from './service.js';

export interface InvoiceRoutesDeps {
  db: AppDb;
  payments: PaymentProvider;
  mailer: Mailer;
  publicUrl: string;
  pool?: PagePool;
}

/**
 * Settings → Billing (issue 26 items 3 and 4): the organisation's invoices and credit notes with
 * their PDFs, the buyer details printed on them, and the card on file. Owners and admins only
 * (plugins/access-rules.ts); every answer is the organisation's own and never cached.
 */
export const invoiceRoutes: FastifyPluginAsyncZod<{ deps: InvoiceRoutesDeps }> = async (
  app,
  { deps },
) => {
  // Anonymous callers are left to the area (plugins/access.ts): nothing here is theirs.
  app.addHook('preValidation', async (request) => {
    if (!request.session || !request.caller.organisationId) {
      throw new UnauthorizedError('Log in to manage billing');
    }
  });
  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'private, no-store');
  });
  const orgOf = (request: { caller: { organisationId?: string | undefined } }) =>
    request.caller.organisationId!;

  app.get(
    '/api/billing/invoices',
    {
      schema: {
        operationId: 'listInvoices',
        summary: "The organisation's invoices and credit notes, newest first",
        tags: ['Billing'],
        security: signedIn,
        response: { 200: InvoiceListResponse },
      },
    },
    async (request) => service.listInvoicesOf(deps.db, orgOf(request)),
  );

  app.get(
    '/api/billing/invoices/:id/pdf',
    {
      schema: {
        operationId: 'getInvoicePdf',
        summary: 'An invoice or credit note as PDF',
        tags: ['Billing'],
        security: signedIn,
        params: InvoiceParams,
        response: { 200: fileResponse('The invoice.', ['application/pdf']) },
      },
    },
    async (request, reply) => {
      const { number, pdf } = await service.invoicePdf(
        deps.db,
        deps.pool,
        orgOf(request),
        request.params.id,
      );
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', `inline; filename="${number}.pdf"`)
        .header('x-content-type-options', 'nosniff')
        .send(pdf);
    },
  );

  app.get(
    '/api/billing/details',
    {
      schema: {
        operationId: 'getBuyerDetails',
        summary: 'Who is billed: the details printed on invoices',
        tags: ['Billing'],
        security: signedIn,
        response: { 200: BuyerDetails },
      },
    },
    async (request) => service.buyerDetails(deps.db, orgOf(request)),
  );

  app.put(
    '/api/billing/details',
    {
      schema: {
        operationId: 'saveBuyerDetails',
        summary: 'Change who is billed (invoices issued from now on)',
        tags: ['Billing'],
        security: signedIn,
        body: BuyerDetailsUpdate,
        response: { 200: BuyerDetails },
      },
    },
    async (request) =>
      service.saveBuyerDetails(deps.db, orgOf(request), request.body, request.caller),
  );

  app.get(
    '/api/billing/card',
    {
      schema: {
        operationId: 'getCardOnFile',
        summary: 'The card on file: brand, last four digits and expiry',
        tags: ['Billing'],
        security: signedIn,
        response: { 200: CardResponse },
      },
    },
    async (request) => cardOnFile(deps, orgOf(request)),
  );

  app.post(
    '/api/billing/card',
    {
      schema: {
        operationId: 'replaceCard',
        summary: 'Replace the card on file',
        tags: ['Billing'],
        security: signedIn,
        body: ReplaceCardInput,
        response: { 200: ReplaceCardResponse },
      },
    },
    async (request) => replaceCard(deps, orgOf(request), request.caller, request.body),
  );

  app.post(
    '/api/billing/card/confirm',
    {
      schema: {
        operationId: 'confirmCard',
        summary: 'Keep the card a confirmed Stripe SetupIntent saved as the card on file',
        tags: ['Billing'],
        security: signedIn,
        body: ConfirmCardInput,
        response: { 200: ReplaceCardResponse },
      },
    },
    async (request) => confirmCard(deps, orgOf(request), request.caller, request.body),
  );
};
