import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestPglite } from '../../../test/support/db.js';
import type { Database } from '#db/client.js';
import { invoices, payments, users } from '#db/schema/index.js';
import { insertPayment } from '#db/stores/payments.js';
import { recordChargeSucceeded, recordRefund } from '../billing/charges.js';
import { handleStripeEvent } from '../billing/stripe-webhook.js';
import { InvalidError } from '../http-errors.js';
import * as repo from './repo.js';
import { listInvoicesOf, saveBuyerDetails } from './service.js';

/**
 * Invoices and credit notes as the charges that make them leave them: one numbered invoice per
 * charge, numbers without gaps, none for a replay, a credit note per refund.
 */

let database: Database;
beforeAll(async () => {
  database = await openTestPglite();
});
afterAll(async () => {
  await database?.close();
});

const db = () => database.db;
const newId = (prefix: string) => `${prefix}_${randomBytes(8).toString('hex')}`;
const serialOf = (number: string) => Number(/(\d+)$/.exec(number)![1]);

async function organisation(name = 'Owner') {
  const [user] = await db()
    .insert(users)
    .values({ email: `${newId('u')}@example.com`, name })
    .returning({ id: users.id, email: users.email });
  return user!;
}

/** A payment the server priced and the provider took, not yet spent. */
async function payment(userId: string, amountCents = 4900, purpose = 'add_domain' as const) {
  const id = newId('demo');
  await insertPayment(db(), {
    id,
    provider: 'demo',
    userId,
    purpose,
    domain: 'shop.test',
    amountCents,
    status: 'succeeded',
    details: { domainIndex: 1 },
  });
  const [row] = await db().select().from(payments).where(eq(payments.id, id));
  return row!;
}

const charge = (row: Awaited<ReturnType<typeof payment>>, now = new Date()) =>
  db().transaction((tx) =>
    recordChargeSucceeded(tx, {
      payment: row,
      status: 'succeeded',
      actor: { organisationId: row.userId, label: 'test' },
      now,
    }),
  );

describe('invoices', () => {
  it('gives every charge one invoice, numbered without gaps, with the buyer as entered', async () => {
    const owner = await organisation('Acme');
    await saveBuyerDetails(db(), owner.id, {
      legalName: 'Acme Trading Ltd',
      billingEmail: 'Accounts@Acme.test',
      address: '1 Main St\nSpringfield',
      country: 'us',
      taxId: '',
    });
    const rows = [];
    for (const cents of [4900, 3900, 2900]) rows.push(await payment(owner.id, cents));
    // Charges made at once, as from several tabs: each takes the next number, none is skipped.
    expect(await Promise.all(rows.map((row) => charge(row)))).toEqual([true, true, true]);

    const issued = await repo.listInvoices(db(), owner.id);
    expect(issued).toHaveLength(3);
    const serials = issued.map((row) => serialOf(row.number)).sort((a, b) => a - b);
    expect(serials).toEqual([serials[0], serials[0]! + 1, serials[0]! + 2]);
    expect(issued.every((row) => /^CFY-\d{4}-\d{6}$/.test(row.number))).toBe(true);
    expect(issued.map((row) => row.amountCents).sort()).toEqual([2900, 3900, 4900]);
    expect(issued[0]!.buyer).toEqual({
      name: 'Acme Trading Ltd',
      email: 'accounts@acme.test',
      address: '1 Main St\nSpringfield',
      country: 'US',
      taxId: '',
    });
    expect(issued[0]!.seller.name).toBe('Conformly');
    expect(issued[0]!.lines[0]!.description).toContain('shop.test');
  });

  it('issues no second invoice for a replayed charge, and a rolled back one leaves no gap', async () => {
    const owner = await organisation();
    const row = await payment(owner.id);
    expect(await charge(row)).toBe(true);
    expect(await charge(row)).toBe(false);
    expect(await repo.listInvoices(db(), owner.id)).toHaveLength(1);

    // A purchase whose effect fails after its invoice was issued rolls the number back too.
    const failed = await payment(owner.id);
    await expect(
      db().transaction(async (tx) => {
        await recordChargeSucceeded(tx, {
          payment: failed,
          status: 'succeeded',
          actor: { organisationId: owner.id, label: 'test' },
          now: new Date(),
        });
        throw new Error('the domain could not be enrolled');
      }),
    ).rejects.toThrow('the domain could not be enrolled');
    const last = (await db().select({ n: invoices.number }).from(invoices))
      .map((r) => serialOf(r.n))
      .sort((a, b) => b - a)[0]!;
    const next = await payment(owner.id, 900);
    await charge(next);
    const [mine] = await db().select().from(invoices).where(eq(invoices.paymentId, next.id));
    expect(serialOf(mine!.number)).toBe(last + 1);
    expect(await db().select().from(invoices).where(eq(invoices.paymentId, failed.id))).toEqual([]);
  });

  it('issues nothing for a charge of nothing', async () => {
    const owner = await organisation();
    const row = await payment(owner.id, 0);
    await charge(row);
    expect(await repo.listInvoices(db(), owner.id)).toEqual([]);
  });

  it('makes a credit note for a refund, once', async () => {
    const owner = await organisation();
    const row = await payment(owner.id, 3600, 'add_on' as never);
    await charge(row);
    const refund = () =>
      db().transaction((tx) =>
        recordRefund(tx, {
          payment: row,
          reason: 'the report could not be delivered',
          actor: { organisationId: owner.id, label: 'test' },
          now: new Date(),
        }),
      );
    expect(await refund()).toBe(true);
    expect(await refund()).toBe(false);
    const list = await listInvoicesOf(db(), owner.id);
    expect(list.invoices.map((row) => row.kind).sort()).toEqual(['credit_note', 'invoice']);
    const note = list.invoices.find((row) => row.kind === 'credit_note')!;
    const invoice = list.invoices.find((row) => row.kind === 'invoice')!;
    expect(note.amountCents).toBe(3600);
    expect(note.number).not.toBe(invoice.number);
    expect(note.description).toContain('could not be delivered');
    const [stored] = await db().select().from(invoices).where(eq(invoices.id, note.id));
    expect(stored!.creditsInvoiceId).toBe(invoice.id);
  });

  it('refuses bad buyer details with a message and keeps the stored ones', async () => {
    const owner = await organisation();
    await saveBuyerDetails(db(), owner.id, { legalName: 'Good Co' });
    for (const bad of [
      { legalName: '' },
      { legalName: 'X', billingEmail: 'not-an-address' },
      { legalName: 'X', country: 'Germany' },
      { legalName: 'X', taxId: '<script>' },
      { legalName: 'x'.repeat(201) },
    ]) {
      await expect(saveBuyerDetails(db(), owner.id, bad)).rejects.toBeInstanceOf(InvalidError);
    }
    expect((await repo.findBuyerDetails(db(), owner.id))!.legalName).toBe('Good Co');
  });
});

describe('Stripe invoices', () => {
  function invoicePaid(userId: string, id: string, eventId = newId('evt')) {
    const end = Math.floor(Date.now() / 1000) + 30 * 24 * 3600;
    return {
      id: eventId,
      object: 'event',
      type: 'invoice.paid',
      data: {
        object: {
          id,
          object: 'invoice',
          customer: null,
          currency: 'usd',
          amount_paid: 4900,
          hosted_invoice_url: `https://invoice.stripe.test/${id}`,
          parent: { subscription_details: { metadata: { userId }, subscription: null } },
          lines: { object: 'list', data: [{ period: { start: end - 30 * 86400, end } }] },
        },
      },
    } as unknown as Stripe.Event;
  }

  it('numbers an invoice Stripe was paid, linking its hosted page, once per invoice', async () => {
    const owner = await organisation();
    const stripeInvoice = newId('in');
    expect(await handleStripeEvent(db(), invoicePaid(owner.id, stripeInvoice))).toBe('handled');
    // Stripe delivers the same invoice again under another event id.
    await handleStripeEvent(db(), invoicePaid(owner.id, stripeInvoice));
    const list = await listInvoicesOf(db(), owner.id);
    expect(list.invoices).toHaveLength(1);
    expect(list.invoices[0]).toMatchObject({
      kind: 'invoice',
      amountCents: 4900,
      hostedUrl: `https://invoice.stripe.test/${stripeInvoice}`,
    });
  });

  it('makes a credit note for a refund made in Stripe', async () => {
    const owner = await organisation();
    const row = await payment(owner.id, 4900);
    await charge(row);
    const refunded = {
      id: newId('evt'),
      object: 'event',
      type: 'charge.refunded',
      data: { object: { id: newId('ch'), payment_intent: row.id, amount_refunded: 1000 } },
    } as unknown as Stripe.Event;
    expect(await handleStripeEvent(db(), refunded)).toBe('handled');
    const note = (await listInvoicesOf(db(), owner.id)).invoices.find(
      (r) => r.kind === 'credit_note',
    );
    expect(note?.amountCents).toBe(1000);
  });
});
