import {
  billingCurrency,
  complianceShield,
  yearlyDiscountPercent,
  type BillingInterval,
  type IntervalChangeLine,
  type IntervalChangePreview,
  type IntervalChangeResponse,
} from '#contract/index.js';
import type { AppDb } from '#db/client.js';
import * as domainStore from '#db/stores/domains.js';
import * as paymentStore from '#db/stores/payments.js';
import type { AuditActor } from '../audit-log/service.js';
import { ConflictError, HttpError, NotFoundError } from '../http-errors.js';
import { recordChargeSucceeded } from './charges.js';
import { lockAccount, moveDomain } from './lifecycle.js';
import type { PaymentProvider } from './payments.js';
import { addMonths, periodMonths, periodPriceCents } from './quote.js';
import * as repo from './repo.js';

/**
 * Annual billing (ADR 0037): the organisation pays for its domains monthly or yearly, the yearly
 * price being the catalogue's (12 months less its discount). To yearly takes effect now: each
 * paid domain's unused part of its period in force is credited, a year from today at its yearly
 * price is charged, and the difference is taken once through the payment provider. Back to
 * monthly takes effect as each domain's year ends (the renewal charges a month then), so nothing
 * already paid is refunded. Domains on their free month, claims and domains in their grace period
 * are not charged by a switch: they start paying at the new interval when their period ends.
 */

export interface IntervalDeps {
  db: AppDb;
  payments: PaymentProvider;
}

const dayMs = 86_400_000;

/** A switch to the interval the account already pays by. */
const alreadyOn = (interval: BillingInterval) =>
  new ConflictError(
    `Your domains are already billed ${interval === 'year' ? 'yearly' : 'monthly'}.`,
  );

class PaymentFailedError extends HttpError {
  constructor(reason: string | undefined) {
    super(402, `Payment Failed: ${reason ?? 'Failed to process payment'}`);
  }
}

interface Plan {
  preview: IntervalChangePreview;
  rows: domainStore.DomainRow[];
  periodEnd: Date | null;
}

/** What switching the account to `interval` at `now` credits and charges, domain by domain. */
async function planChange(
  db: AppDb,
  userId: string,
  interval: BillingInterval,
  now: Date,
): Promise<Plan> {
  const account = await repo.findBillingAccount(db, userId);
  if (!account) throw new NotFoundError('Account not found');
  const current = account.interval;
  if (current === interval) throw alreadyOn(interval);
  const switchesNow = interval === 'year';
  // Paid domains whose period still runs: the ones a switch to yearly credits and charges.
  const rows = switchesNow
    ? (await domainStore.listAccountDomainRows(db, userId, ['active'])).filter(
        (row) => row.currentPeriodEnd !== null && row.currentPeriodEnd > now,
      )
    : [];
  const periodEnd = switchesNow ? addMonths(now, periodMonths(interval)) : null;
  const lines: IntervalChangeLine[] = rows.map((row) => {
    const end = row.currentPeriodEnd!;
    // The period in force: a year still running after a switch back to monthly (which applies
    // at renewal) has more than a month left; a month never has.
    const inForce = end > addMonths(now, 1) ? 'year' : current;
    const start = addMonths(end, -periodMonths(inForce));
    const paid = periodPriceCents(row.monthlyPrice, inForce);
    const unused = Math.max(0, end.getTime() - now.getTime());
    const length = Math.max(dayMs, end.getTime() - start.getTime());
    const creditCents = Math.min(paid, Math.round((paid * unused) / length));
    const priceCents = periodPriceCents(row.monthlyPrice, interval);
    return {
      domain: row.domain,
      domainIndex: row.domainIndex,
      priceCents,
      creditCents,
      chargeCents: priceCents,
    };
  });
  const creditCents = lines.reduce((sum, line) => sum + line.creditCents, 0);
  const chargeCents = lines.reduce((sum, line) => sum + line.chargeCents, 0);
  return {
    rows,
    periodEnd,
    preview: {
      currentInterval: current,
      interval,
      effective: switchesNow ? 'now' : 'period_end',
      lines,
      creditCents,
      chargeCents,
      dueCents: Math.max(0, chargeCents - creditCents),
      periodEnd: periodEnd?.toISOString() ?? null,
      yearlyDiscountPercent,
      currency: billingCurrency,
    },
  };
}

/** `GET /api/billing/interval?interval=`: the figures of a switch, before the owner confirms. */
export async function previewIntervalChange(
  deps: Pick<IntervalDeps, 'db'>,
  userId: string,
  interval: BillingInterval,
  now = new Date(),
): Promise<IntervalChangePreview> {
  return (await planChange(deps.db, userId, interval, now)).preview;
}

/**
 * `POST /api/billing/interval`: switches the account to `interval`. The amount is the server's
 * own (the preview's, computed again now); it is charged before anything is written, then the
 * account's interval, each paid domain's new period and the payment with its invoice are written
 * in one transaction, which refuses (409, nothing written) when the figures changed meanwhile.
 */
export async function changeInterval(
  deps: IntervalDeps,
  payer: { userId: string; email: string; actor: AuditActor },
  interval: BillingInterval,
  now = new Date(),
): Promise<IntervalChangeResponse> {
  const { db } = deps;
  const { userId } = payer;
  const planned = await planChange(db, userId, interval, now);
  const due = planned.preview.dueCents;
  const payment =
    due > 0
      ? await deps.payments.createPayment({
          amountCents: due,
          description: `${complianceShield.product}: yearly billing from ${now.toISOString().slice(0, 10)}`,
          customerEmail: payer.email,
          metadata: { userId, purpose: 'subscribe', interval },
          idempotencyKey: `interval:${userId}:${interval}:${now.toISOString()}`,
        })
      : null;
  if (payment && payment.status !== 'succeeded')
    throw new PaymentFailedError(payment.failureMessage);

  await db.transaction(async (tx) => {
    if (!(await lockAccount(tx, userId))) throw new NotFoundError('Account not found');
    const again = await planChange(tx, userId, interval, now);
    if (again.preview.dueCents !== due) {
      throw new ConflictError(
        'Your domains changed while switching; please review the figures again.',
      );
    }
    await repo.updateBillingAccount(tx, userId, { interval, intervalChangedAt: now });
    for (const row of again.rows) {
      const line = again.preview.lines.find((entry) => entry.domain === row.domain)!;
      await moveDomain(tx, {
        row,
        change: { status: 'active', currentPeriodEnd: again.periodEnd },
        action: 'interval_changed',
        details: {
          interval,
          creditCents: line.creditCents,
          chargeCents: line.chargeCents,
          periodEnd: again.periodEnd?.toISOString() ?? null,
        },
      });
    }
    if (payment) {
      const details = {
        description: `${complianceShield.product}: ${again.rows.length} domain(s) billed yearly until ${again.periodEnd!.toISOString().slice(0, 10)}, less ${(again.preview.creditCents / 100).toFixed(2)} unused`,
        interval,
        creditCents: again.preview.creditCents,
        chargeCents: again.preview.chargeCents,
        demo: payment.demo,
      };
      await paymentStore.insertPayment(tx, {
        id: payment.id,
        provider: payment.provider,
        userId,
        purpose: 'subscribe',
        domain: null,
        amountCents: due,
        status: payment.status,
        details,
      });
      await recordChargeSucceeded(tx, {
        payment: {
          id: payment.id,
          userId,
          purpose: 'subscribe',
          domain: null,
          amountCents: due,
          details,
          provider: payment.provider,
        },
        status: payment.status,
        actor: payer.actor,
        audit: { interval, creditCents: again.preview.creditCents },
        now,
      });
    }
  });
  return {
    ...planned.preview,
    payment: payment ? { transactionId: payment.id, amountCents: due, demo: payment.demo } : null,
  };
}
