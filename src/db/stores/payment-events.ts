import { and, desc, eq, inArray, isNotNull, isNull, ne, sql } from 'drizzle-orm';
import type { AppDb } from '../client.js';
import { billingAccounts, paymentEvents, payments, subscriptions } from '../schema/index.js';

/**
 * What a payment provider's webhook event reads and writes: the ids of the events already
 * handled (`payment_events`), the outcome of a payment the server asked for (`payments.status`),
 * and the account a provider's customer belongs to.
 */

export interface ProviderEvent {
  id: string;
  provider: string;
  type: string;
}

/**
 * Records the event as handled. False when it was handled before: a replayed (or concurrently
 * delivered) event then changes nothing. Run it in the transaction of the event's effects, so an
 * event whose effects fail is not marked handled and the provider's retry runs them again.
 */
export async function claimEvent(db: AppDb, event: ProviderEvent): Promise<boolean> {
  const rows = await db
    .insert(paymentEvents)
    .values(event)
    .onConflictDoNothing({ target: paymentEvents.id })
    .returning({ id: paymentEvents.id });
  return rows.length > 0;
}

export async function isEventHandled(db: AppDb, id: string): Promise<boolean> {
  const [row] = await db
    .select({ id: paymentEvents.id })
    .from(paymentEvents)
    .where(eq(paymentEvents.id, id));
  return row !== undefined;
}

/**
 * The provider's word on a payment the server recorded. A payment that succeeded, or whose
 * purchase was granted, keeps its state: events may arrive out of order, and a late "failed" of
 * an earlier attempt must not undo a success. False when no row changed.
 */
export async function recordPaymentOutcome(
  db: AppDb,
  id: string,
  outcome: { status: string; failureMessage?: string },
  now: Date,
): Promise<boolean> {
  const details = outcome.failureMessage ? { failureMessage: outcome.failureMessage } : {};
  const rows = await db
    .update(payments)
    .set({
      status: outcome.status,
      details: sql`${payments.details} || ${JSON.stringify(details)}::jsonb`,
      updatedAt: now,
    })
    .where(and(eq(payments.id, id), ne(payments.status, 'succeeded'), isNull(payments.consumedAt)))
    .returning({ id: payments.id });
  return rows.length > 0;
}

export interface ProviderAccount {
  id: string;
  /** The provider's subscription the account pays with now, when one was stored. */
  subscriptionId: string | null;
}

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The account a provider's event is about: the one holding the provider's customer id, or else
 * the account id the server put in the object's metadata when it created it (an event can arrive
 * before the customer id is stored). Undefined when neither names an account.
 */
export async function findAccountOf(
  db: AppDb,
  reference: { customerId: string | null; userId: string | null },
): Promise<ProviderAccount | undefined> {
  const columns = {
    id: billingAccounts.organisationId,
    subscriptionId: billingAccounts.stripeSubscriptionId,
  };
  let found: ProviderAccount | undefined;
  if (reference.customerId) {
    [found] = await db
      .select(columns)
      .from(billingAccounts)
      .where(eq(billingAccounts.stripeCustomerId, reference.customerId))
      .limit(1);
  }
  if (!found && reference.userId && uuidPattern.test(reference.userId)) {
    [found] = await db
      .select(columns)
      .from(billingAccounts)
      .where(eq(billingAccounts.organisationId, reference.userId));
  }
  if (!found || found.subscriptionId) return found;
  // The account's own record names none: its running subscription row may.
  const [running] = await db
    .select({ subscriptionId: subscriptions.stripeSubscriptionId })
    .from(subscriptions)
    .where(
      and(
        eq(subscriptions.userId, found.id),
        isNotNull(subscriptions.stripeSubscriptionId),
        inArray(subscriptions.status, ['active', 'past_due']),
      ),
    )
    .orderBy(desc(subscriptions.createdAt))
    .limit(1);
  return { ...found, subscriptionId: running?.subscriptionId ?? null };
}
