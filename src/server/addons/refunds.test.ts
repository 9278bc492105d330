import { and, eq } from 'drizzle-orm';
import { strFromU8, unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addOnCatalogue, addOnPriceCents, reportRefundPolicy } from '#contract/index.js';
import type { Database } from '#db/client.js';
import { addOns, auditLog, payments, scans } from '#db/schema/index.js';
import { insertPayment } from '#db/stores/payments.js';
import { openTestPglite } from '../../../test/support/db.js';
import { seedDomain, seedScans, seedUser } from '../../../test/support/dashboard-seed.js';
import { DemoPaymentProvider } from '../billing/payments.js';
import { listInvoicesOf } from '../invoices/service.js';
import { checkDelivery } from './delivery.js';
import * as repo from './repo.js';
import { askForRefund, download, purchase, type AddOnServiceDeps } from './service.js';

/**
 * Add-on refunds without HTTP (ADR 0042): a purchase makes its document once and records the
 * pages it covers; a delivery that falls short is refunded by the server; a report rejected in
 * a review is refunded when its owner asks within the window, once, and only their own.
 */

let database: Database;
let provider: DemoPaymentProvider;
let deps: AddOnServiceDeps;
let ownerId: string;
let strangerId: string;
const domain = 'refunds-shop.test';
const day = 24 * 3600 * 1000;

beforeAll(async () => {
  database = await openTestPglite();
  provider = new DemoPaymentProvider();
  deps = { db: database.db, payments: provider };
  ownerId = await seedUser(database.db, { email: 'refund-owner@example.com' });
  strangerId = await seedUser(database.db, { email: 'refund-stranger@example.com' });
  await seedDomain(database.db, ownerId, { domain, index: 1 });
  const scanned = new Date(Date.now() - 3600_000);
  await seedScans(database.db, ownerId, domain, [
    {
      url: `https://${domain}/`,
      completedAt: scanned,
      score: 80,
      issues: [{ key: 'logo', rule: 'image-alt', impact: 'critical' }],
    },
    {
      url: `https://${domain}/contact`,
      completedAt: new Date(scanned.getTime() + 1000),
      score: 90,
      issues: [],
    },
  ]);
  // What the scan worker stores beside the counts, which the documents print.
  await database.db
    .update(scans)
    .set({
      processingTimes: { load: 100, axe: 200, pa11y: 300, ibm: 400, total: 1000 },
      engineVersions: { axe: '4.10.0' },
    })
    .where(eq(scans.domain, domain));
}, 60_000);
afterAll(() => database?.close());

const owner = () => ({ organisationId: ownerId, email: 'refund-owner@example.com' });

/** A demo payment for the add-on, recorded as the payment dialog's call records it. */
async function buy(addOnId: string, pages: number) {
  const amountCents = addOnPriceCents(addOnId, pages);
  const payment = await provider.createPayment({
    amountCents,
    description: addOnId,
    customerEmail: 'refund-owner@example.com',
    metadata: {},
    idempotencyKey: `${addOnId}:${pages}:${Math.random()}`,
  });
  await insertPayment(database.db, {
    id: payment.id,
    provider: 'demo',
    userId: ownerId,
    purpose: 'add_on',
    domain,
    amountCents,
    status: 'created',
    details: { addOnId, pages },
  });
  return purchase(deps, owner(), { addOnId, domain, pages, paymentIntentId: payment.id });
}

const creditNotes = async () =>
  (await listInvoicesOf(database.db, ownerId)).invoices.filter((i) => i.kind === 'credit_note');

describe('delivery at purchase', () => {
  it('makes the document once and records the 2 pages a 2-page add-on delivers', async () => {
    const { addOn, message } = await buy('vpat-automated', 2);
    expect(message).toContain('VPAT automated purchased.');
    expect(addOn).toMatchObject({ pages: 2, pagesDelivered: 2, refund: null, price: 248 });
    const until = new Date(addOn.refundableUntil!).getTime();
    const bought = new Date(addOn.createdAt).getTime();
    expect(until - bought).toBe(reportRefundPolicy.withinDays * day);

    const file = await download(deps, owner(), addOn.id);
    const xml = strFromU8(unzipSync(new Uint8Array(file.body as Buffer))['word/document.xml']!);
    expect(xml).toContain(`https://${domain}/contact`);
    expect(xml).toContain(`https://${domain}/`);
  });

  it('refunds a delivery that falls short: the payment, its credit note, the audit log and the add-on say so', async () => {
    const { addOn } = await buy('json-3-engines', 2);
    const [row] = await database.db.select().from(addOns).where(eq(addOns.id, addOn.id));
    const before = (await creditNotes()).length;
    // One of the two scans is gone by the time the document is made.
    await database.db.delete(scans).where(eq(scans.url, `https://${domain}/contact`));
    const outcome = await checkDelivery(
      deps,
      row!,
      addOnCatalogue.find((entry) => entry.id === 'json-3-engines')!,
      {
        organisationId: ownerId,
        label: 'Delivery check',
      },
    );
    expect(outcome).toEqual({
      delivered: false,
      pages: 1,
      reason: 'Delivery fell short: 1 page of the 2 bought could be covered.',
    });

    const after = await repo.findOwnAddOn(database.db, ownerId, addOn.id);
    expect(after).toMatchObject({
      pagesDelivered: 1,
      status: 'refunded',
      refundReason: 'Delivery fell short: 1 page of the 2 bought could be covered.',
    });
    expect(after?.refundedAt).toBeInstanceOf(Date);
    const [paid] = await database.db
      .select()
      .from(payments)
      .where(eq(payments.id, row!.stripePaymentId!));
    expect(paid?.status).toBe('refunded');
    expect((await provider.retrievePayment(paid!.id))?.status).toBe('refunded');
    const notes = await creditNotes();
    expect(notes).toHaveLength(before + 1);
    expect(notes[0]).toMatchObject({ amountCents: 1000 });
    expect(notes[0]?.description).toContain('Delivery fell short');
    const [entry] = await database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.organisationId, ownerId), eq(auditLog.action, 'payment.refunded')));
    expect(entry).toMatchObject({ actorLabel: 'Delivery check' });
    expect(entry?.details).toMatchObject({ refundedCents: 1000, creditNote: notes[0]!.number });

    // Refunded once: asking again is refused and issues nothing.
    await expect(
      askForRefund(deps, owner(), addOn.id, { reason: 'Rejected by the buyer review board' }),
    ).rejects.toMatchObject({ statusCode: 409 });
    expect(await creditNotes()).toHaveLength(before + 1);
  });
});

describe('asking for the refund of a rejected report', () => {
  it('refunds at once within the window, with the review as the reason', async () => {
    const { addOn } = await buy('openacr-json', 1);
    const refunded = await askForRefund(deps, owner(), addOn.id, {
      reason: '  Rejected in the county procurement review: ACR lacks a manual audit  ',
    });
    expect(refunded.refund).toMatchObject({
      amount: 19,
      reason:
        'Rejected in review: Rejected in the county procurement review: ACR lacks a manual audit',
    });
    expect(refunded.refundableUntil).toBeNull();
    const [note] = await creditNotes();
    expect(note?.description).toContain('county procurement review');
  });

  it('refuses a missing reason (400), another organisation (404) and a purchase older than the window (409)', async () => {
    const { addOn } = await buy('openacr-json', 1);
    await expect(askForRefund(deps, owner(), addOn.id, { reason: ' ' })).rejects.toMatchObject({
      statusCode: 400,
    });
    await expect(
      askForRefund(deps, { organisationId: strangerId }, addOn.id, {
        reason: 'Rejected in our procurement review',
      }),
    ).rejects.toMatchObject({ statusCode: 404 });
    await database.db
      .update(addOns)
      .set({ createdAt: new Date(Date.now() - (reportRefundPolicy.withinDays + 1) * day) })
      .where(eq(addOns.id, addOn.id));
    await expect(
      askForRefund(deps, owner(), addOn.id, { reason: 'Rejected in our procurement review' }),
    ).rejects.toMatchObject({
      statusCode: 409,
      message: expect.stringContaining('within 30 days of the purchase'),
    });
    const row = await repo.findOwnAddOn(database.db, ownerId, addOn.id);
    expect(row?.refundedAt).toBeNull();
  });
});
