import type { AppDb } from '#db/client.js';
import * as paymentStore from '#db/stores/payments.js';
import type { AuditActor } from '../audit-log/service.js';
import { BadGatewayError, ConflictError, NotFoundError } from '../http-errors.js';
import { hasCreditNote } from '../invoices/service.js';
import { recordRefund } from './charges.js';
import type { PaymentProvider } from './payments.js';

/**
 * The one way the server gives a charge back (an add-on whose delivery fell short, or one refunded
 * on request: addons/refunds.ts). The provider refunds first (Stripe: a Refund of the
 * PaymentIntent; demo: the payment marked refunded), outside any transaction; then, in one
 * transaction, the payment reads refunded, its credit note is issued and audited (recordRefund),
 * and what the caller undoes (the add-on's refunded state) is written. Stripe's later
 * `charge.refunded` for the same refund finds the credit note and issues none (one per payment).
 * The credit note is e-mailed with the invoices after the call that made it (app.ts).
 */

export interface RefundOrder {
  paymentId: string;
  /** The account the payment must belong to: another account's payment is not found. */
  userId: string;
  reason: string;
  actor: AuditActor;
  now: Date;
  /** What the refund undoes, written in the credit note's transaction. */
  effect?: (tx: AppDb) => Promise<void>;
}

export interface RefundDone {
  refundId: string;
  refundedCents: number;
  creditNote: boolean;
}

const alreadyRefunded = () => new ConflictError('This charge has already been refunded.');

export async function refundCharge(
  db: AppDb,
  provider: PaymentProvider,
  order: RefundOrder,
): Promise<RefundDone> {
  const payment = await paymentStore.findPayment(db, order.paymentId);
  if (!payment || payment.userId !== order.userId) throw new NotFoundError('Charge not found');
  if (payment.status === 'refunded' || (await hasCreditNote(db, payment.id))) {
    throw alreadyRefunded();
  }
  if (!payment.consumedAt || payment.amountCents <= 0) {
    throw new ConflictError('Only a charge that paid for something can be refunded.');
  }
  if (!provider.refundPayment) {
    throw new BadGatewayError('The payment provider cannot refund payments.');
  }
  // The same key for every attempt: a retried or doubled request refunds once at the provider.
  const refund = await provider.refundPayment({
    paymentId: payment.id,
    amountCents: payment.amountCents,
    reason: order.reason,
    metadata: { userId: payment.userId, purpose: payment.purpose },
    idempotencyKey: `refund:${payment.id}`,
  });
  if (refund.status === 'failed') {
    throw new BadGatewayError(refund.failureMessage ?? 'The payment provider refused the refund.');
  }
  try {
    const creditNote = await db.transaction(async (tx) => {
      await paymentStore.updatePaymentStatus(tx, payment.id, 'refunded');
      const issued = await recordRefund(tx, {
        payment,
        refundedCents: refund.amountCents,
        reason: order.reason,
        actor: order.actor,
        now: order.now,
      });
      await order.effect?.(tx);
      return issued;
    });
    return { refundId: refund.id, refundedCents: refund.amountCents, creditNote };
  } catch (error) {
    // A twin request (or Stripe's webhook) recorded this refund first: one credit note stands.
    if (await hasCreditNote(db, payment.id)) throw alreadyRefunded();
    throw error;
  }
}
