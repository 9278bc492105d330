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
import { addMonths, periodMonths, periodPriceCents, subscriptionAmountCents } from './quote.js';
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
  const key = `interval:${userId}:${interval}:${now.toISOString()}`;
  // Stripe mode: the provider's subscription renews the account, so it moves to the new
  // interval itself and charges its own proration; its paid invoice is the payment.
  const subscriptionId = (await repo.findBillingAccount(db, userId))?.stripeSubscriptionId;
  if (deps.payments.changeSubscriptionInterval && subscriptionId) {
    const monitored = await domainStore.listAccountDomainRows(db, userId, [
      'trial',
      'active',
      'grace_period',
    ]);
    const change = await deps.payments.changeSubscriptionInterval({
      subscriptionId,
      interval,
      periodAmountCents: subscriptionAmountCents(monitored, interval),
      effective: planned.preview.effective,
      idempotencyKey: key,
    });
    if (change.status !== 'succeeded') throw new PaymentFailedError(change.failureMessage);
    const charged =
      change.invoiceId && change.amountPaidCents > 0
        ? {
            id: change.invoiceId,
            provider: deps.payments.kind,
            demo: false,
            amountCents: change.amountPaidCents,
            currency: change.currency,
            hostedUrl: change.hostedInvoiceUrl,
          }
        : null;
    await writeChange(db, payer, interval, now, charged, null);
    return {
      ...planned.preview,
      payment: charged
        ? { transactionId: charged.id, amountCents: charged.amountCents, demo: false }
        : null,
    };
  }
  const payment =
    due > 0
      ? await deps.payments.createPayment({
          amountCents: due,
          description: `${complianceShield.product}: yearly billing from ${now.toISOString().slice(0, 10)}`,
          customerEmail: payer.email,
          metadata: { userId, purpose: 'subscribe', interval },
          idempotencyKey: key,
        })
      : null;
  if (payment && payment.status !== 'succeeded')
    throw new PaymentFailedError(payment.failureMessage);

  await writeChange(
    db,
    payer,
    interval,
    now,
    payment
      ? {
          id: payment.id,
          provider: payment.provider,
          demo: payment.demo,
          amountCents: due,
          currency: null,
          hostedUrl: null,
        }
      : null,
    due,
  );
  return {
    ...planned.preview,
    payment: payment ? { transactionId: payment.id, amountCents: due, demo: payment.demo } : null,
  };
}

/** A charge the switch took: the provider's payment (demo) or paid invoice (Stripe). */
interface SwitchCharge {
  id: string;
  provider: PaymentProvider['kind'];
  demo: boolean;
  amountCents: number;
  currency: string | null;
  /** The provider's hosted page of its invoice (Stripe). */
  hostedUrl: string | null;
}

/**
 * Writes a switch in one transaction: the account's interval, each paid domain's new period and
 * the charge with its invoice. `expectedDue` (the demo's own charge) must still be what the
 * figures come to, or nothing is written (409); Stripe's charge is its own proration.
 */
async function writeChange(
  db: AppDb,
  payer: { userId: string; actor: AuditActor },
  interval: BillingInterval,
  now: Date,
  charge: SwitchCharge | null,
  expectedDue: number | null,
) {
  const { userId } = payer;
  await db.transaction(async (tx) => {
    if (!(await lockAccount(tx, userId))) throw new NotFoundError('Account not found');
    const again = await planChange(tx, userId, interval, now);
    if (expectedDue !== null && again.preview.dueCents !== expectedDue) {
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
    if (charge) {
      const details = {
        description: `${complianceShield.product}: ${again.rows.length} domain(s) billed yearly until ${again.periodEnd!.toISOString().slice(0, 10)}, less ${(again.preview.creditCents / 100).toFixed(2)} unused`,
        interval,
        creditCents: again.preview.creditCents,
        chargeCents: again.preview.chargeCents,
        demo: charge.demo,
      };
      const record = {
        id: charge.id,
        userId,
        purpose: 'subscribe' as const,
        domain: null,
        amountCents: charge.amountCents,
        details,
        provider: charge.provider,
        ...(charge.currency ? { currency: charge.currency } : {}),
      };
      // Stripe's invoice.paid for this invoice may have recorded it first: then nothing here.
      await paymentStore.insertPayment(tx, { ...record, status: 'succeeded' });
      await recordChargeSucceeded(tx, {
        payment: record,
        status: 'succeeded',
        actor: payer.actor,
        audit: { interval, creditCents: again.preview.creditCents },
        hostedUrl: charge.hostedUrl,
        now,
      });
    }
  });
}
