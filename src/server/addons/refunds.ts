import { reportRefundPolicy, type AddOnRefundRequest } from '#contract/index.js';
import { AddOnRefundRequest as RefundRequestSchema } from '#contract/index.js';
import type { AppDb } from '#db/client.js';
import type { AuditActor } from '../audit-log/service.js';
import type { PaymentProvider } from '../billing/payments.js';
import { refundCharge } from '../billing/refunds.js';
import { ConflictError, InvalidError, NotFoundError } from '../http-errors.js';
import * as repo from './repo.js';

/**
 * Refunds of add-on reports (ADR 0042), both through billing's one refund path (refundCharge:
 * provider, credit note, audit log) with the add-on's refunded state written beside the credit
 * note:
 * - a delivery that failed or fell short is refunded by the server at once (delivery.ts);
 * - a report rejected in a procurement or compliance review is refunded when its owner or an
 *   admin asks within the catalogue's window (the terms' promise), with the review's reason.
 *   This is a self-serve product: the refund is granted when asked and no person reviews it.
 */

export interface AddOnRefundDeps {
  db: AppDb;
  payments: PaymentProvider;
}

const dayMs = 24 * 3600 * 1000;

/** Until when a refund of this add-on can be asked for; null once refunded or past the window. */
export function refundableUntil(row: repo.AddOnRecord, now = new Date()): Date | null {
  if (row.refundedAt || !row.stripePaymentId || row.price <= 0) return null;
  const until = new Date(row.createdAt.getTime() + reportRefundPolicy.withinDays * dayMs);
  return until > now ? until : null;
}

/** Gives the add-on's charge back and marks the add-on refunded, in the credit note's transaction. */
export async function refundAddOn(
  deps: AddOnRefundDeps,
  row: repo.AddOnRecord,
  refund: { reason: string; actor: AuditActor; now?: Date },
): Promise<void> {
  if (!row.stripePaymentId) {
    throw new ConflictError('This add-on has no recorded payment to refund.');
  }
  const now = refund.now ?? new Date();
  await refundCharge(deps.db, deps.payments, {
    paymentId: row.stripePaymentId,
    userId: row.userId,
    reason: refund.reason,
    actor: refund.actor,
    now,
    effect: async (tx) => {
      await repo.markRefunded(tx, row.id, { refundedAt: now, reason: refund.reason });
    },
  });
}

/**
 * `POST /api/add-ons/{id}/refund`: another organisation's add-on is the 404 of a missing one; a
 * refunded one, or one bought more than the window ago, is a 409 saying so; a missing reason 400.
 */
export async function requestRefund(
  deps: AddOnRefundDeps,
  organisationId: string,
  actor: AuditActor,
  id: string,
  body: AddOnRefundRequest,
  now = new Date(),
): Promise<repo.AddOnRecord> {
  const parsed = RefundRequestSchema.safeParse(body);
  if (!parsed.success) throw new InvalidError(parsed.error.issues[0]?.message ?? 'Invalid input');
  const row = await repo.findOwnAddOn(deps.db, organisationId, id);
  if (!row) throw new NotFoundError('Add-on not found');
  if (row.refundedAt) {
    throw new ConflictError(
      `This add-on was already refunded on ${row.refundedAt.toISOString().slice(0, 10)}.`,
    );
  }
  if (!refundableUntil(row, now)) {
    throw new ConflictError(
      `A refund can be asked for within ${reportRefundPolicy.withinDays} days of the purchase; this add-on was bought on ${row.createdAt.toISOString().slice(0, 10)}.`,
    );
  }
  await refundAddOn(deps, row, {
    reason: `Rejected in review: ${parsed.data.reason}`,
    actor,
    now,
  });
  return (await repo.findOwnAddOn(deps.db, organisationId, id))!;
}
