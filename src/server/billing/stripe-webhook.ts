import type Stripe from 'stripe';
import type { AppDb } from '#db/client.js';
import {
  claimEvent,
  findAccountOf,
  recordPaymentOutcome,
  type ProviderAccount,
} from '#db/stores/payment-events.js';
import { complianceShield } from '#contract/index.js';
import { findPayment, insertPayment } from '#db/stores/payments.js';
import { paymentProviderActor } from '../audit-log/service.js';
import { ConflictError } from '../http-errors.js';
import { recordChargeSucceeded, recordRefund } from './charges.js';
import {
  cancelSubscription,
  recordCardAdded,
  recordPaymentFailed,
  recordPaymentSucceeded,
} from './lifecycle.js';

/**
 * What Stripe tells us after the fact (`POST /api/stripe/webhook`, signature already verified):
 *
 * - payment_intent.succeeded, .payment_failed, .canceled: the `payments` row's status;
 * - setup_intent.succeeded: the card is on file (recordCardAdded; a replacement's card is kept by
 *   the confirm call, card.ts); .setup_failed: the row's status;
 * - invoice.paid, when money was taken: the domains are paid to the invoice line's period end,
 *   and the charge gets our numbered invoice, linking Stripe's hosted invoice page;
 * - invoice.payment_failed, for a renewal: the account's domains go to their grace period;
 * - customer.subscription.deleted: the subscription ends now (cancelSubscription);
 * - charge.refunded: a refund made in Stripe's Dashboard gets a credit note and goes into the
 *   audit log of the organisation that paid (what the payment bought stays bought).
 *
 * Each event id is recorded in `payment_events` in the same transaction as its effects, so a
 * replayed event changes nothing twice, and an event whose effects fail is not recorded and
 * Stripe's retry runs it again. Other event types are recorded and otherwise ignored.
 */

export type WebhookOutcome =
  /** The event did what it does. */
  | 'handled'
  /** Seen before: nothing changed. */
  | 'replayed'
  /** A type we do not act on, or about a payment we never recorded. */
  | 'ignored'
  /** About a customer no account of ours holds. */
  | 'unknown_account';

const idOf = (value: string | { id: string } | null | undefined): string | null =>
  value == null ? null : typeof value === 'string' ? value : value.id;

/** Who an object is about: its customer, or the account id we put in its metadata. */
function reference(object: {
  customer?: string | { id: string } | null;
  metadata?: Record<string, string> | null;
}) {
  return { customerId: idOf(object.customer), userId: object.metadata?.userId ?? null };
}

/** The end of the period an invoice paid for: the latest end among its lines. */
function paidUntil(invoice: Stripe.Invoice): Date | undefined {
  const ends = invoice.lines.data.map((line) => line.period.end).filter((end) => end > 0);
  return ends.length > 0 ? new Date(Math.max(...ends) * 1000) : undefined;
}

/** The account an invoice bills: its customer's, or the subscription's metadata at billing time. */
function invoiceReference(invoice: Stripe.Invoice) {
  const details = invoice.parent?.subscription_details;
  return {
    customerId: idOf(invoice.customer),
    userId: details?.metadata?.userId ?? null,
    subscriptionId: idOf(details?.subscription),
  };
}

/**
 * The account, unless the event is about a subscription the account no longer pays with (one
 * replaced by a newer setup): the end of an old subscription must not end the current one.
 */
function currentAccount(
  account: ProviderAccount | undefined,
  subscriptionId: string | null,
): ProviderAccount | 'not_current' | undefined {
  if (!account) return undefined;
  if (subscriptionId && account.subscriptionId && account.subscriptionId !== subscriptionId) {
    return 'not_current';
  }
  return account;
}

export async function handleStripeEvent(
  db: AppDb,
  event: Stripe.Event,
  now = new Date(),
): Promise<WebhookOutcome> {
  return db.transaction(async (tx) => {
    if (!(await claimEvent(tx, { id: event.id, provider: 'stripe', type: event.type }))) {
      return 'replayed';
    }

    /** The account an object is about, and whether the event still concerns it. */
    const account = async (
      ref: { customerId: string | null; userId: string | null },
      subscriptionId: string | null = null,
    ) => currentAccount(await findAccountOf(tx, ref), subscriptionId);
    const outcome = async (id: string, status: string, failureMessage?: string) =>
      (await recordPaymentOutcome(tx, id, { status, failureMessage }, now)) ? 'handled' : 'ignored';

    switch (event.type) {
      case 'payment_intent.succeeded':
        return outcome(event.data.object.id, 'succeeded');
      case 'payment_intent.payment_failed':
        return outcome(
          event.data.object.id,
          'failed',
          event.data.object.last_payment_error?.message ?? undefined,
        );
      case 'payment_intent.canceled':
        return outcome(event.data.object.id, 'failed');

      case 'setup_intent.succeeded': {
        const intent = event.data.object;
        await recordPaymentOutcome(tx, intent.id, { status: 'succeeded' }, now);
        // A replacement of the card on file: Settings → Billing's confirm call reads the new card
        // back from Stripe and keeps its brand, last four and expiry; this report must not
        // overwrite them with a card it knows nothing of.
        if (intent.metadata?.purpose === 'card_replacement') return 'handled';
        const found = await account(reference(intent), intent.metadata?.subscriptionId ?? null);
        if (!found) return 'unknown_account';
        if (found === 'not_current') return 'ignored';
        await recordCardAdded(tx, found.id, now);
        return 'handled';
      }
      case 'setup_intent.setup_failed':
        return outcome(
          event.data.object.id,
          'failed',
          event.data.object.last_setup_error?.message ?? undefined,
        );

      case 'invoice.paid': {
        const invoice = event.data.object;
        // The $0 invoice a free month opens with takes no money: the month is not paid for.
        if (invoice.amount_paid <= 0) return 'ignored';
        const periodEnd = paidUntil(invoice);
        if (!periodEnd) return 'ignored';
        const ref = invoiceReference(invoice);
        const found = await account(ref, ref.subscriptionId);
        if (!found) return 'unknown_account';
        if (found === 'not_current') return 'ignored';
        // The switch to yearly paid this invoice and recorded it already (billing/interval.ts).
        if (invoice.id && (await findPayment(tx, invoice.id))) return 'ignored';
        await recordPaymentSucceeded(tx, found.id, periodEnd, now);
        // Stripe charged by itself: the charge is recorded under its invoice's id, and our
        // numbered invoice links Stripe's hosted one.
        const paymentId = invoice.id ?? event.id;
        const details = {
          renewal: true,
          stripeInvoice: true,
          description: `${complianceShield.product}: subscription, paid until ${periodEnd.toISOString().slice(0, 10)}`,
        };
        await insertPayment(tx, {
          id: paymentId,
          provider: 'stripe',
          userId: found.id,
          purpose: 'subscribe',
          domain: null,
          amountCents: invoice.amount_paid,
          status: 'succeeded',
          details,
        });
        await recordChargeSucceeded(tx, {
          payment: {
            id: paymentId,
            userId: found.id,
            purpose: 'subscribe',
            domain: null,
            amountCents: invoice.amount_paid,
            currency: invoice.currency,
            provider: 'stripe',
            details,
          },
          status: 'succeeded',
          actor: paymentProviderActor(found.id, 'stripe'),
          audit: { paidUntil: periodEnd.toISOString() },
          hostedUrl: invoice.hosted_invoice_url ?? null,
          now,
        });
        return 'handled';
      }
      case 'invoice.payment_failed': {
        // The first invoice of a subscription without a free month is paid in the card form:
        // a decline there is the payer's to retry, not a lapse of anything already running.
        if (event.data.object.billing_reason === 'subscription_create') return 'ignored';
        const ref = invoiceReference(event.data.object);
        const found = await account(ref, ref.subscriptionId);
        if (!found) return 'unknown_account';
        if (found === 'not_current') return 'ignored';
        await recordPaymentFailed(tx, found.id, now);
        return 'handled';
      }

      case 'customer.subscription.deleted': {
        const subscription = event.data.object;
        const found = await account(reference(subscription), subscription.id);
        if (!found) return 'unknown_account';
        if (found === 'not_current') return 'ignored';
        try {
          await cancelSubscription(tx, found.id, now, paymentProviderActor(found.id, 'stripe'));
        } catch (error) {
          // Cancelled here first (the owner's cancel ends the Stripe subscription, which Stripe
          // then reports): nothing is left to cancel, and Stripe must not retry.
          if (error instanceof ConflictError) return 'ignored';
          throw error;
        }
        return 'handled';
      }

      case 'charge.refunded': {
        const charge = event.data.object;
        const paymentId = idOf(charge.payment_intent);
        const paid = paymentId ? await findPayment(tx, paymentId) : undefined;
        if (!paid) return 'ignored';
        // The refund's credit note (one per payment; a replay of the event finds it).
        await recordRefund(tx, {
          payment: paid,
          refundedCents: charge.amount_refunded,
          actor: paymentProviderActor(paid.userId, 'stripe'),
          now,
        });
        return 'handled';
      }

      default:
        return 'ignored';
    }
  });
}
