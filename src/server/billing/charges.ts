import type { AppDb } from '#db/client.js';
import * as paymentStore from '#db/stores/payments.js';
import { recordAudit, type AuditActor } from '../audit-log/service.js';
import {
  hasCreditNote,
  issueCreditNote,
  issueInvoice,
  type ChargeRecord,
} from '../invoices/service.js';

/**
 * The one place a charge is recorded as succeeded, whoever made it (a purchase in the dashboard,
 * the demo provider's renewal in the lifecycle run, a Stripe invoice paid): the payment is spent,
 * the organisation's audit log says so, and the charge's numbered invoice is issued, all in the
 * caller's transaction, so what was bought, the record of the payment and its invoice stand or
 * fall together.
 */

export interface SucceededCharge {
  payment: ChargeRecord;
  /** The status the provider reported, stored with the payment. */
  status: string;
  actor: AuditActor;
  /** Extra facts for the audit log (renewal, provider, paid until...). */
  audit?: Record<string, unknown>;
  /** Stripe's hosted page of its invoice for this charge. */
  hostedUrl?: string | null;
  now: Date;
}

/**
 * False, and nothing written, when the payment was spent before: a replayed purchase call or
 * webhook neither grants twice nor takes a second invoice number.
 */
export async function recordChargeSucceeded(db: AppDb, charge: SucceededCharge): Promise<boolean> {
  const { payment } = charge;
  if (!(await paymentStore.consumePayment(db, payment.id, charge.status, charge.now))) {
    return false;
  }
  const invoice = await issueInvoice(db, payment, {
    now: charge.now,
    hostedUrl: charge.hostedUrl ?? null,
  });
  await recordAudit(
    db,
    charge.actor,
    'payment.succeeded',
    { type: 'payment', id: payment.id },
    {
      purpose: payment.purpose,
      domain: payment.domain,
      amountCents: payment.amountCents,
      ...(payment.provider ? { provider: payment.provider } : {}),
      ...(invoice ? { invoice: invoice.number } : {}),
      ...charge.audit,
    },
  );
  return true;
}

/**
 * A refund of a recorded payment (Stripe's charge.refunded, or a refund the server made for a
 * delivery that failed): its credit note is issued and the audit log says so, in the caller's
 * transaction. A second report of the same refund finds the credit note and writes nothing.
 */
export async function recordRefund(
  db: AppDb,
  refund: {
    payment: ChargeRecord;
    refundedCents?: number;
    reason?: string;
    actor: AuditActor;
    now: Date;
  },
): Promise<boolean> {
  if (await hasCreditNote(db, refund.payment.id)) return false;
  const note = await issueCreditNote(db, refund.payment, {
    now: refund.now,
    ...(refund.refundedCents !== undefined ? { refundedCents: refund.refundedCents } : {}),
    ...(refund.reason ? { reason: refund.reason } : {}),
  });
  await recordAudit(
    db,
    refund.actor,
    'payment.refunded',
    { type: 'payment', id: refund.payment.id },
    {
      purpose: refund.payment.purpose,
      domain: refund.payment.domain,
      amountCents: refund.payment.amountCents,
      refundedCents: note?.amountCents ?? refund.refundedCents ?? 0,
      ...(refund.reason ? { reason: refund.reason } : {}),
      ...(note ? { creditNote: note.number } : {}),
    },
  );
  return true;
}
