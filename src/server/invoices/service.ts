import {
  complianceShield,
  type BuyerDetails,
  type BuyerDetailsUpdate,
  type InvoiceLine,
  type InvoiceListResponse,
  type InvoiceParty,
} from '#contract/index.js';
import { BuyerDetailsUpdate as BuyerDetailsSchema } from '#contract/index.js';
import type { AppDb } from '#db/client.js';
import type { PaymentRow } from '#db/stores/payments.js';
import type { Mailer } from '#email/mailer.js';
import { formatMoney, renderInvoiceHtml } from '#reports/invoice.js';
import type { PagePool } from '#scanner';
import { recordAudit, type AuditActor } from '../audit-log/service.js';
import { printPdf } from '../documents/pdf.js';
import { InvalidError, NotFoundError } from '../http-errors.js';
import * as repo from './repo.js';

/**
 * Invoices and receipts (issue 26 item 3). Every charge gets a numbered invoice and every refund
 * a credit note, written in the transaction that records the charge's effect, so a purchase
 * either exists with its invoice or not at all. One invoice per payment and kind (a unique
 * index), so a replayed purchase call or webhook finds the first instead of issuing a second.
 */

/** The seller printed on invoices: the operator's details from config (SELLER_* variables). */
export const defaultSeller: InvoiceParty = {
  name: 'Conformly',
  email: 'billing@conformly.example',
  address: '',
  country: '',
  taxId: '',
};

let seller: InvoiceParty = defaultSeller;

/** Set once at start-up from config (buildApp); each invoice keeps the seller it was issued by. */
export function useInvoiceSeller(details: InvoiceParty | undefined): void {
  seller = details ?? defaultSeller;
}

/** What a payment row must tell for its invoice. */
export type ChargeRecord = Pick<
  PaymentRow,
  'id' | 'userId' | 'purpose' | 'domain' | 'amountCents' | 'details'
> & { currency?: string | null; provider?: string };

/** What the invoice line says a payment bought, from its purpose and what the server priced. */
export function chargeDescription(payment: ChargeRecord): string {
  const d = payment.details ?? {};
  const domain = payment.domain ?? 'your domains';
  if (typeof d.description === 'string' && d.description) return d.description;
  switch (payment.purpose) {
    case 'add_domain':
      return `${complianceShield.product} for ${domain}: first month`;
    case 'reactivate':
      return `${complianceShield.product} for ${domain}: reactivation, one month`;
    case 'add_on': {
      const pages = typeof d.pages === 'number' ? d.pages : 1;
      return `Add-on ${String(d.addOnId ?? '')} for ${domain} (${pages} page${pages === 1 ? '' : 's'})`;
    }
    case 'subscribe': {
      const start = typeof d.periodStart === 'string' ? d.periodStart.slice(0, 10) : null;
      const renewal = d.renewal ? `renewal${start ? ` from ${start}` : ''}` : 'subscription';
      return `${complianceShield.product} for ${domain}: ${renewal}`;
    }
    default:
      return `${complianceShield.product}: ${payment.purpose.replace(/_/g, ' ')}`;
  }
}

async function buyerOf(db: AppDb, organisationId: string): Promise<InvoiceParty> {
  const details = await repo.findBuyerDetails(db, organisationId);
  const contact = await repo.findOrganisationContact(db, organisationId);
  return {
    name: details?.legalName ?? contact?.name ?? '',
    email: details?.billingEmail ?? contact?.email ?? '',
    address: details?.address ?? '',
    country: details?.country ?? '',
    taxId: details?.taxId ?? '',
  };
}

export interface IssueOptions {
  now?: Date;
  /** Stripe's hosted page of the invoice it made for this charge. */
  hostedUrl?: string | null;
}

/**
 * The invoice of a charge that succeeded, issued now in the caller's transaction (call it where
 * the payment is spent). A charge of nothing (a card kept for later) gets none; a payment already
 * invoiced answers its invoice: a replay never takes a second number.
 */
export async function issueInvoice(
  db: AppDb,
  payment: ChargeRecord,
  options: IssueOptions = {},
): Promise<repo.InvoiceRow | undefined> {
  if (payment.amountCents <= 0) return undefined;
  const known = await repo.findInvoiceOfPayment(db, payment.id, 'invoice');
  if (known) return known;
  const now = options.now ?? new Date();
  const line: InvoiceLine = {
    description: chargeDescription(payment),
    quantity: 1,
    unitCents: payment.amountCents,
    amountCents: payment.amountCents,
  };
  const serial = await repo.nextInvoiceSerial(db);
  return repo.insertInvoice(db, {
    number: repo.formatInvoiceNumber(serial, now),
    organisationId: payment.userId,
    kind: 'invoice',
    paymentId: payment.id,
    amountCents: payment.amountCents,
    currency: payment.currency ?? 'usd',
    lines: [line],
    seller,
    buyer: await buyerOf(db, payment.userId),
    hostedUrl: options.hostedUrl ?? null,
    issuedAt: now,
  });
}

/**
 * The credit note of a refund of `payment` (all of it unless `refundedCents` says less), in the
 * caller's transaction. The charge's invoice is issued first if it had none, so a credit note
 * always credits a numbered invoice. One credit note per payment: a replayed refund finds it.
 */
export async function issueCreditNote(
  db: AppDb,
  payment: ChargeRecord,
  options: { now?: Date; refundedCents?: number; reason?: string } = {},
): Promise<repo.InvoiceRow | undefined> {
  const now = options.now ?? new Date();
  const invoice = await issueInvoice(db, payment, { now });
  if (!invoice) return undefined;
  const known = await repo.findInvoiceOfPayment(db, payment.id, 'credit_note');
  if (known) return known;
  const cents = Math.min(options.refundedCents ?? invoice.amountCents, invoice.amountCents);
  if (cents <= 0) return undefined;
  const serial = await repo.nextInvoiceSerial(db);
  return repo.insertInvoice(db, {
    number: repo.formatInvoiceNumber(serial, now),
    organisationId: invoice.organisationId,
    kind: 'credit_note',
    paymentId: payment.id,
    creditsInvoiceId: invoice.id,
    amountCents: cents,
    currency: invoice.currency,
    lines: [
      {
        description: `Refund: ${invoice.lines[0]?.description ?? chargeDescription(payment)}${options.reason ? ` (${options.reason})` : ''}`,
        quantity: 1,
        unitCents: cents,
        amountCents: cents,
      },
    ],
    seller: invoice.seller,
    buyer: await buyerOf(db, invoice.organisationId),
    issuedAt: now,
  });
}

export async function hasCreditNote(db: AppDb, paymentId: string): Promise<boolean> {
  return Boolean(await repo.findInvoiceOfPayment(db, paymentId, 'credit_note'));
}

const pdfUrl = (id: string) => `/api/billing/invoices/${id}/pdf`;

/** Settings → Billing's list: invoices and credit notes, newest first, with their links. */
export async function listInvoicesOf(
  db: AppDb,
  organisationId: string,
): Promise<InvoiceListResponse> {
  const rows = await repo.listInvoices(db, organisationId);
  return {
    invoices: rows.map((row) => ({
      id: row.id,
      number: row.number,
      kind: row.kind,
      amountCents: row.amountCents,
      currency: row.currency,
      issuedAt: row.issuedAt.toISOString(),
      description: row.lines.map((line) => line.description).join('; '),
      pdfUrl: pdfUrl(row.id),
      hostedUrl: row.hostedUrl,
    })),
  };
}

/** The invoice as a PDF, printed on one of the server's browser tabs. */
export async function invoicePdf(
  db: AppDb,
  pool: PagePool | undefined,
  organisationId: string,
  id: string,
): Promise<{ number: string; pdf: Buffer }> {
  const row = await repo.findInvoice(db, organisationId, id);
  if (!row) throw new NotFoundError('Invoice not found');
  if (!pool) throw new InvalidError('PDF printing is not available on this server');
  const credited = row.creditsInvoiceId
    ? await repo.findInvoice(db, organisationId, row.creditsInvoiceId)
    : undefined;
  const html = renderInvoiceHtml({
    number: row.number,
    kind: row.kind,
    issuedAt: row.issuedAt,
    currency: row.currency,
    amountCents: row.amountCents,
    lines: row.lines,
    seller: row.seller,
    buyer: row.buyer,
    creditsNumber: credited?.number ?? null,
    paymentId: row.paymentId,
    demo: row.paymentId?.startsWith('demo_') ?? false,
  });
  return { number: row.number, pdf: await printPdf(pool, html) };
}

export async function buyerDetails(db: AppDb, organisationId: string): Promise<BuyerDetails> {
  const row = await repo.findBuyerDetails(db, organisationId);
  if (!row) throw new NotFoundError('Billing account not found');
  return row;
}

/** Saves who is billed; invoices issued from now on print it, earlier ones keep theirs. */
export async function saveBuyerDetails(
  db: AppDb,
  organisationId: string,
  input: BuyerDetailsUpdate,
  actor?: AuditActor,
): Promise<BuyerDetails> {
  const parsed = BuyerDetailsSchema.safeParse(input);
  if (!parsed.success) throw new InvalidError(parsed.error.issues[0]?.message ?? 'Invalid input');
  await db.transaction(async (tx) => {
    if (!(await repo.updateBuyerDetails(tx, organisationId, parsed.data))) {
      throw new NotFoundError('Billing account not found');
    }
    if (actor) {
      await recordAudit(tx, actor, 'billing.details_changed', null, {
        legalName: parsed.data.legalName,
      });
    }
  });
  return parsed.data;
}

/** How long after issue an invoice's e-mail is still sent (a server down for a while catches up). */
const mailWindowDays = 7;

/**
 * E-mails each invoice and credit note issued lately that has not been e-mailed yet, to the
 * buyer's billing address, with a link to its PDF. The outbox's dedupe key (`invoice:<id>`)
 * makes each go out once however often this runs: after each purchase and each lifecycle run.
 */
export async function mailIssuedInvoices(
  db: AppDb,
  mailer: Mailer,
  publicUrl: string,
  now = new Date(),
): Promise<number> {
  const rows = await repo.listUnmailedSince(
    db,
    new Date(now.getTime() - mailWindowDays * 24 * 3600 * 1000),
  );
  let sent = 0;
  for (const row of rows) {
    const to = row.buyer.email;
    if (!to) continue;
    const credit = row.kind === 'credit_note';
    const title = credit ? 'Credit note' : 'Invoice';
    const amount = formatMoney(row.amountCents, row.currency);
    const text = [
      `${title} ${row.number} from ${row.seller.name}`,
      '',
      credit
        ? `${amount} is credited for: ${row.lines.map((l) => l.description).join('; ')}.`
        : `${amount} was charged for: ${row.lines.map((l) => l.description).join('; ')}.`,
      '',
      `Download the PDF (sign in as an owner or admin): ${publicUrl}${pdfUrl(row.id)}`,
      ...(row.hostedUrl ? [`View it at Stripe: ${row.hostedUrl}`] : []),
      `All invoices: ${publicUrl}/settings#billing`,
    ].join('\n');
    if (
      await mailer.sendOnce({
        to,
        subject: `${title} ${row.number}: ${amount}`,
        text,
        dedupeKey: `invoice:${row.id}`,
      })
    ) {
      sent += 1;
    }
  }
  return sent;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route can charge money (and so issue invoices): after it answers, invoices not yet
     * e-mailed are sent. Other calls never look.
     */
    charges?: boolean;
  }
}
