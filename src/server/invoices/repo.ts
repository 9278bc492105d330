import { and, desc, eq, gte, notExists, sql } from 'drizzle-orm';
import type { InvoiceKind, InvoiceLine, InvoiceParty } from '#contract/index.js';
import type { AppDb } from '#db/client.js';
import { billingAccounts, invoices, organisations, outboxEmails, users } from '#db/schema/index.js';

/**
 * Queries of invoices and credit notes, and of the buyer details and card on file kept on the
 * organisation's billing account. Writes run inside the caller's transaction.
 */

export type InvoiceRow = typeof invoices.$inferSelect;

/** Numbers are printed with this prefix, the year of issue and six digits: CFY-2026-000042. */
export const invoicePrefix = 'CFY';

/**
 * The next invoice number, held until the transaction ends. Numbers must run without gaps (an
 * auditor reads a gap as a missing invoice), which a sequence does not promise: a transaction
 * rolled back after `nextval` loses its number. So the issuer takes a transaction-scoped lock
 * and continues from the highest number issued; a rolled-back issue leaves its number free.
 */
export async function nextInvoiceSerial(db: AppDb): Promise<number> {
  await db.execute(sql`select pg_advisory_xact_lock(hashtext('conformly.invoice_number'))`);
  const [row] = await db
    .select({
      last: sql<number | null>`max((substring(${invoices.number} from '([0-9]+)$'))::bigint)`,
    })
    .from(invoices);
  return Number(row?.last ?? 0) + 1;
}

export function formatInvoiceNumber(serial: number, issuedAt: Date): string {
  return `${invoicePrefix}-${issuedAt.getUTCFullYear()}-${String(serial).padStart(6, '0')}`;
}

export interface NewInvoice {
  number: string;
  organisationId: string;
  kind: InvoiceKind;
  paymentId: string | null;
  creditsInvoiceId?: string | null;
  amountCents: number;
  currency: string;
  lines: InvoiceLine[];
  seller: InvoiceParty;
  buyer: InvoiceParty;
  hostedUrl?: string | null;
  issuedAt: Date;
}

/** The new row, or undefined when this payment already has a document of this kind. */
export async function insertInvoice(
  db: AppDb,
  values: NewInvoice,
): Promise<InvoiceRow | undefined> {
  const [row] = await db
    .insert(invoices)
    .values(values)
    .onConflictDoNothing({ target: [invoices.paymentId, invoices.kind] })
    .returning();
  return row;
}

export async function findInvoiceOfPayment(
  db: AppDb,
  paymentId: string,
  kind: InvoiceKind,
): Promise<InvoiceRow | undefined> {
  const [row] = await db
    .select()
    .from(invoices)
    .where(and(eq(invoices.paymentId, paymentId), eq(invoices.kind, kind)));
  return row;
}

export async function findInvoice(
  db: AppDb,
  organisationId: string,
  id: string,
): Promise<InvoiceRow | undefined> {
  const [row] = await db
    .select()
    .from(invoices)
    .where(and(eq(invoices.organisationId, organisationId), eq(invoices.id, id)));
  return row;
}

export async function listInvoices(db: AppDb, organisationId: string): Promise<InvoiceRow[]> {
  return db
    .select()
    .from(invoices)
    .where(eq(invoices.organisationId, organisationId))
    .orderBy(desc(invoices.issuedAt), desc(invoices.number));
}

export async function setHostedUrl(db: AppDb, id: string, hostedUrl: string): Promise<void> {
  await db.update(invoices).set({ hostedUrl }).where(eq(invoices.id, id));
}

const buyerColumns = {
  legalName: billingAccounts.legalName,
  billingEmail: billingAccounts.billingEmail,
  address: billingAccounts.address,
  country: billingAccounts.country,
  taxId: billingAccounts.taxId,
};

export type BuyerColumns = {
  legalName: string | null;
  billingEmail: string | null;
  address: string | null;
  country: string | null;
  taxId: string | null;
};

export async function findBuyerDetails(
  db: AppDb,
  organisationId: string,
): Promise<BuyerColumns | undefined> {
  const [row] = await db
    .select(buyerColumns)
    .from(billingAccounts)
    .where(eq(billingAccounts.organisationId, organisationId));
  return row;
}

/** Writes the buyer details; false when the organisation has no billing account. */
export async function updateBuyerDetails(
  db: AppDb,
  organisationId: string,
  values: BuyerColumns,
): Promise<boolean> {
  const rows = await db
    .update(billingAccounts)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(billingAccounts.organisationId, organisationId))
    .returning({ id: billingAccounts.organisationId });
  return rows.length > 0;
}

export interface CardColumns {
  cardBrand: string | null;
  cardLast4: string | null;
  cardExpMonth: number | null;
  cardExpYear: number | null;
  cardProviderId: string | null;
  cardUpdatedAt: Date | null;
}

export async function findCard(
  db: AppDb,
  organisationId: string,
): Promise<CardColumns | undefined> {
  const [row] = await db
    .select({
      cardBrand: billingAccounts.cardBrand,
      cardLast4: billingAccounts.cardLast4,
      cardExpMonth: billingAccounts.cardExpMonth,
      cardExpYear: billingAccounts.cardExpYear,
      cardProviderId: billingAccounts.cardProviderId,
      cardUpdatedAt: billingAccounts.cardUpdatedAt,
    })
    .from(billingAccounts)
    .where(eq(billingAccounts.organisationId, organisationId));
  return row;
}

export async function updateCard(
  db: AppDb,
  organisationId: string,
  card: CardColumns,
): Promise<void> {
  await db
    .update(billingAccounts)
    .set({ ...card, updatedAt: new Date() })
    .where(eq(billingAccounts.organisationId, organisationId));
}

/** The provider's customer and subscription of the account: where a new card is kept. */
export async function findProviderIds(db: AppDb, organisationId: string) {
  const [row] = await db
    .select({
      customerId: billingAccounts.stripeCustomerId,
      subscriptionId: billingAccounts.stripeSubscriptionId,
    })
    .from(billingAccounts)
    .where(eq(billingAccounts.organisationId, organisationId));
  return row;
}

/** What an invoice says of a buyer who entered no details: the organisation and its founder. */
export async function findOrganisationContact(db: AppDb, organisationId: string) {
  const [row] = await db
    .select({ name: organisations.name, email: users.email })
    .from(organisations)
    .innerJoin(users, eq(users.id, organisations.id))
    .where(eq(organisations.id, organisationId));
  return row;
}

/** Invoices issued since `since` with no e-mail in the outbox yet, oldest first. */
export async function listUnmailedSince(db: AppDb, since: Date): Promise<InvoiceRow[]> {
  return db
    .select()
    .from(invoices)
    .where(
      and(
        gte(invoices.issuedAt, since),
        notExists(
          db
            .select({ one: sql`1` })
            .from(outboxEmails)
            .where(eq(outboxEmails.dedupeKey, sql`'invoice:' || ${invoices.id}`)),
        ),
      ),
    )
    .orderBy(invoices.issuedAt);
}
