import { eq } from 'drizzle-orm';
import Fastify from 'fastify';
import type Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AuditLogQuery,
  defaultBadgeSettings,
  SubmitComplaintRequest,
  type AuditAction,
  type AuditLogEntry,
} from '#contract/index.js';
import type { Database } from '#db/client.js';
import { domains, scans, users } from '#db/schema/index.js';
import { createMailer, type Mailer } from '#email/mailer.js';
import { createQueue, type PgBoss } from '#jobs/boss.js';
import { seedScans } from '../../../test/support/dashboard-seed.js';
import { openTestPglite } from '../../../test/support/db.js';
import { purchase } from '../addons/service.js';
import {
  cancelPlan,
  recordCardAdded,
  sweepLifecycle,
  ownershipProved,
} from '../billing/lifecycle.js';
import { createPaymentIntent } from '../billing/payment-intents.js';
import { subscribe } from '../billing/service.js';
import { DemoPaymentProvider } from '../billing/payments.js';
import { handleStripeEvent } from '../billing/stripe-webhook.js';
import { saveOwnBadge } from '../badges/service.js';
import {
  reply,
  submitComplaint,
  updateNotes,
  updateStatus,
  type ComplaintActor,
  type ComplaintServiceDeps,
} from '../complaints/service.js';
import {
  addDomain,
  archiveDomain,
  reactivateDomain,
  type DomainPlanDeps,
} from '../billing/domain-plans/service.js';
import { updateMonitoring } from '../domains/site-monitoring.js';
import { monitoringCheckLabel, recordOwnershipCheck } from '../domains/verification-service.js';
import { setVisibility } from '../scans/service.js';
import { readAuditLog } from './service.js';

/**
 * Each change the audit log promises to record, made through its area's service as a route
 * makes it, then read back from the log: who (the person, or the payment provider), what, which
 * target, from where.
 */

let database: Database;
let mailer: Mailer;
let boss: PgBoss;
let domainDeps: DomainPlanDeps;
let complaintDeps: ComplaintServiceDeps;
const payments = new DemoPaymentProvider();
const ip = '198.51.100.7';
const site = 'recorded.test';

/** An organisation's founder acting in it, as `request.caller` carries them. */
interface Person {
  organisationId: string;
  userId: string;
  email: string;
  ip: string;
}
let owner: Person;

async function addAccount(email: string): Promise<Person> {
  const [row] = await database.db
    .insert(users)
    .values({ email, name: email.split('@')[0]! })
    .returning({ id: users.id });
  return { organisationId: row!.id, userId: row!.id, email, ip };
}

const asOwner = (person: Person) => ({
  userId: person.organisationId,
  email: person.email,
  actor: person,
});

/** The organisation's entries, newest first; of one action when given. */
async function entries(person: Person, action?: AuditAction): Promise<AuditLogEntry[]> {
  const query = AuditLogQuery.parse({ action, pageSize: 200 });
  return (await readAuditLog(database.db, person.organisationId, query)).entries;
}

async function latest(person: Person, action: AuditAction): Promise<AuditLogEntry> {
  const [entry] = await entries(person, action);
  expect(entry, `an entry for ${action}`).toBeDefined();
  return entry!;
}

async function domainId(domain: string): Promise<string> {
  const [row] = await database.db.select().from(domains).where(eq(domains.domain, domain));
  return row!.id;
}

const proved = { verified: true, method: 'dns' as const, error: null };

beforeAll(async () => {
  database = await openTestPglite();
  boss = await createQueue(database);
  mailer = createMailer({
    db: database.db,
    smtpUrl: undefined,
    from: 'Conformly <no-reply@localhost>',
    log: Fastify({ logger: false }).log,
  });
  domainDeps = { db: database.db, payments, publicUrl: 'https://conformly.example' };
  complaintDeps = { db: database.db, mailer, publicUrl: 'https://conformly.example' };
  owner = await addAccount('owner@recorded.test');
}, 180_000);

afterAll(async () => {
  await mailer?.close();
  await boss?.stop({ graceful: false, wait: true });
  await database?.close();
});

describe('domains', () => {
  it('records a domain added, archived and brought back, by whom and from where', async () => {
    await addDomain(domainDeps, asOwner(owner), { domain: site });
    await archiveDomain(domainDeps, asOwner(owner), site);
    await reactivateDomain(domainDeps, asOwner(owner), site, {});

    const log = await entries(owner);
    expect(log.map((entry) => entry.action)).toEqual([
      'domain.reactivated',
      'domain.archived',
      'domain.added',
    ]);
    for (const entry of log) {
      expect(entry).toMatchObject({
        actor: owner.email,
        actorIsPerson: true,
        target: { type: 'domain', id: site },
        ip,
      });
    }
    expect(log[1]!.details).toMatchObject({ previousStatus: 'trial' });
  });

  it('records nothing for a repeat that changes nothing', async () => {
    const before = (await entries(owner)).length;
    await archiveDomain(domainDeps, asOwner(owner), site);
    await archiveDomain(domainDeps, asOwner(owner), site);
    await reactivateDomain(domainDeps, asOwner(owner), site, {});
    expect((await entries(owner)).map((entry) => entry.action).slice(0, 2)).toEqual([
      'domain.reactivated',
      'domain.archived',
    ]);
    expect((await entries(owner)).length).toBe(before + 2);
  });

  it('records a verification by the person who asked, or by the monitoring run', async () => {
    await recordOwnershipCheck(
      { db: database.db, onOwnershipProved: ownershipProved },
      await domainId(site),
      proved,
      new Date(),
      owner,
    );
    expect(await latest(owner, 'domain.verified')).toMatchObject({
      actor: owner.email,
      target: { type: 'domain', id: site },
      details: { method: 'dns' },
    });

    const second = 'second-recorded.test';
    await addDomain(domainDeps, asOwner(owner), { domain: second });
    await recordOwnershipCheck(
      { db: database.db, onOwnershipProved: ownershipProved },
      await domainId(second),
      proved,
      new Date(),
    );
    expect(await latest(owner, 'domain.verified')).toMatchObject({
      actor: monitoringCheckLabel,
      actorIsPerson: false,
      target: { id: second },
    });
    // A check that proves nothing new (still verified) is no event.
    const verified = (await entries(owner, 'domain.verified')).length;
    await recordOwnershipCheck(
      { db: database.db, onOwnershipProved: ownershipProved },
      await domainId(site),
      proved,
      new Date(),
      owner,
    );
    expect((await entries(owner, 'domain.verified')).length).toBe(verified);
  });

  it('records monitoring settings and badge changes with what they became', async () => {
    await updateMonitoring(
      { db: database.db, boss, pageBudget: 10 },
      owner.organisationId,
      site,
      { excludes: ['/private/'] },
      owner,
    );
    expect(await latest(owner, 'domain.monitoring_changed')).toMatchObject({
      actor: owner.email,
      target: { type: 'domain', id: site },
      details: { monitorExcludes: ['/private/'] },
    });

    const settings = { ...defaultBadgeSettings, theme: 'dark' as const };
    await saveOwnBadge({ db: database.db }, owner.organisationId, site, settings, owner);
    expect(await latest(owner, 'badge.changed')).toMatchObject({
      actor: owner.email,
      target: { type: 'domain', id: site },
      details: { settings: { theme: 'dark' } },
    });
  });

  it('records no badge change for a domain that is not the organisation’s', async () => {
    const before = (await entries(owner, 'badge.changed')).length;
    await expect(
      saveOwnBadge(
        { db: database.db },
        owner.organisationId,
        'nobodys.test',
        defaultBadgeSettings,
        owner,
      ),
    ).rejects.toMatchObject({ statusCode: 404 });
    expect((await entries(owner, 'badge.changed')).length).toBe(before);
  });
});

describe('complaints', () => {
  it('records a status change, a reply and the notes, without the notes’ words', async () => {
    const filed = await submitComplaint(
      complaintDeps,
      SubmitComplaintRequest.parse({
        domain: site,
        name: 'Visitor',
        email: 'visitor@example.org',
        message: 'The checkout button cannot be reached with the keyboard.',
        type: 'complaint',
        priority: 'normal',
        privacyConsent: true,
      }),
    );
    expect(filed.waiting).toBe(false);
    const actor: ComplaintActor = { ...owner, name: 'Owner' };
    await updateStatus(complaintDeps, actor, filed.id, { status: 'in_progress' });
    await reply(complaintDeps, actor, filed.id, { message: 'We are on it.', isInternal: false });
    await updateNotes(complaintDeps, actor, filed.id, { notes: 'Private: ask the vendor.' });

    const target = { type: 'complaint', id: filed.id };
    expect(await latest(owner, 'complaint.status_changed')).toMatchObject({
      actor: owner.email,
      target,
      details: { from: 'new', to: 'in_progress', domain: site },
      ip,
    });
    expect(await latest(owner, 'complaint.replied')).toMatchObject({
      actor: owner.email,
      target,
      details: { public: true },
    });
    const notes = await latest(owner, 'complaint.note_added');
    expect(notes).toMatchObject({ actor: owner.email, target });
    expect(JSON.stringify(notes.details)).not.toContain('vendor');
  });
});

describe('scans, add-ons and billing', () => {
  let scanId: string;

  beforeAll(async () => {
    [scanId = ''] = await seedScans(database.db, owner.organisationId, site, [
      { url: `https://${site}/`, completedAt: new Date(), score: 90, issues: [] },
    ]);
    // Stored as the worker stores a finished scan, so an add-on of its page can be delivered.
    await database.db
      .update(scans)
      .set({ processingTimes: { load: 400, axe: 300, pa11y: 100, ibm: 300, total: 1100 } })
      .where(eq(scans.id, scanId));
  });

  it('records a scan made public', async () => {
    await setVisibility(
      { db: database.db, boss, allowPrivateTargets: false },
      { ...owner, clientId: undefined, role: 'owner', token: undefined, owner: undefined },
      scanId,
      true,
    );
    expect(await latest(owner, 'scan.visibility_changed')).toMatchObject({
      actor: owner.email,
      target: { type: 'scan', id: scanId },
      details: { isPublic: true },
    });
  });

  it('records an add-on bought with the payment it spent', async () => {
    const intent = await createPaymentIntent(
      { db: database.db, payments },
      { userId: owner.organisationId, email: owner.email },
      { domain: site, addOnId: 'json-3-engines', pages: 1 },
    );
    const bought = await purchase({ db: database.db, payments }, owner, {
      addOnId: 'json-3-engines',
      domain: site,
      paymentIntentId: intent.paymentIntentId,
      pages: 1,
    });
    expect(await latest(owner, 'addon.purchased')).toMatchObject({
      actor: owner.email,
      target: { type: 'add_on', id: bought.addOn.id },
      details: { addOnId: 'json-3-engines', domain: site, pages: 1, priceCents: 700 },
    });
    expect(await latest(owner, 'payment.succeeded')).toMatchObject({
      actor: owner.email,
      target: { type: 'payment', id: intent.paymentIntentId },
      details: { purpose: 'add_on', amountCents: 700, provider: 'demo' },
    });
  });

  it('records a domain bought at checkout, by the buyer', async () => {
    const buyer = await addAccount('buyer@recorded.test');
    const [checkoutScan = ''] = await seedScans(
      database.db,
      buyer.organisationId,
      'checkout-recorded.test',
      [{ url: 'https://checkout-recorded.test/', completedAt: new Date(), score: 80, issues: [] }],
    );
    await subscribe(
      { db: database.db, payments, mailer, publicUrl: 'https://conformly.example' },
      buyer,
      { scanId: checkoutScan, domain: 'checkout-recorded.test', email: buyer.email },
    );
    expect(await latest(buyer, 'domain.added')).toMatchObject({
      actor: buyer.email,
      target: { type: 'domain', id: 'checkout-recorded.test' },
      details: { via: 'checkout', status: 'trial' },
      ip,
    });
  });

  it('records a cancelled plan with the domains it archived', async () => {
    await cancelPlan(database.db, payments, owner.organisationId, new Date(), owner);
    const cancelled = await latest(owner, 'subscription.cancelled');
    expect(cancelled).toMatchObject({ actor: owner.email, actorIsPerson: true });
    expect((cancelled.details.archivedDomains as string[]).sort()).toEqual([
      site,
      'second-recorded.test',
    ]);
  });
});

describe("the payment provider's events", () => {
  const event = (id: string, type: string, object: object) =>
    ({ id, type, object: 'event', data: { object } }) as unknown as Stripe.Event;

  it('names Stripe, not a person, for a renewal paid and a subscription it ended', async () => {
    const customer = await addAccount('webhook@recorded.test');
    await addDomain(domainDeps, asOwner(customer), { domain: 'webhook-recorded.test' });
    const periodEnd = Math.floor(Date.now() / 1000) + 30 * 86_400;

    const paid = await handleStripeEvent(
      database.db,
      event('evt_paid', 'invoice.paid', {
        id: 'in_recorded',
        object: 'invoice',
        customer: null,
        amount_paid: 4900,
        parent: { subscription_details: { metadata: { userId: customer.organisationId } } },
        lines: { object: 'list', data: [{ period: { start: 1, end: periodEnd } }] },
      }),
    );
    expect(paid).toBe('handled');
    expect(await latest(customer, 'payment.succeeded')).toMatchObject({
      actor: 'Stripe',
      actorIsPerson: false,
      target: { type: 'payment', id: 'in_recorded' },
      details: { amountCents: 4900 },
      ip: null,
    });

    const ended = await handleStripeEvent(
      database.db,
      event('evt_deleted', 'customer.subscription.deleted', {
        id: 'sub_recorded',
        object: 'subscription',
        customer: null,
        metadata: { userId: customer.organisationId },
      }),
    );
    expect(ended).toBe('handled');
    expect(await latest(customer, 'subscription.cancelled')).toMatchObject({
      actor: 'Stripe',
      actorIsPerson: false,
      details: { archivedDomains: ['webhook-recorded.test'] },
    });
    // The owner's organisation saw none of it.
    expect(await entries(owner)).not.toContainEqual(expect.objectContaining({ actor: 'Stripe' }));
  });

  it("names Stripe for a refund of the organisation's payment made in its Dashboard", async () => {
    const [bought] = await entries(owner, 'payment.succeeded');
    const refunded = await handleStripeEvent(
      database.db,
      event('evt_refunded', 'charge.refunded', {
        id: 'ch_recorded',
        object: 'charge',
        payment_intent: bought!.target!.id,
        amount_refunded: 700,
      }),
    );
    expect(refunded).toBe('handled');
    expect(await latest(owner, 'payment.refunded')).toMatchObject({
      actor: 'Stripe',
      actorIsPerson: false,
      target: { type: 'payment', id: bought!.target!.id },
      details: { purpose: 'add_on', amountCents: 700, refundedCents: 700 },
    });
    // A refund of a payment nobody here made is nobody's entry.
    const unknown = await handleStripeEvent(
      database.db,
      event('evt_refunded_unknown', 'charge.refunded', {
        id: 'ch_unknown',
        object: 'charge',
        payment_intent: 'pi_nobody',
        amount_refunded: 100,
      }),
    );
    expect(unknown).toBe('ignored');
  });

  it('names the payment provider for a month renewed on the card on file', async () => {
    const renewing = await addAccount('renewing@recorded.test');
    const start = new Date(Date.UTC(2026, 4, 1, 8));
    await addDomain(domainDeps, asOwner(renewing), { domain: 'renewing-recorded.test' }, start);
    await recordOwnershipCheck(
      { db: database.db, onOwnershipProved: ownershipProved },
      await domainId('renewing-recorded.test'),
      proved,
      start,
    );
    await recordCardAdded(database.db, renewing.organisationId, start);
    const swept = await sweepLifecycle(
      database.db,
      payments,
      new Date(start.getTime() + 31 * 86_400_000),
    );
    expect(swept.activated).toContain('renewing-recorded.test');
    expect(await latest(renewing, 'payment.succeeded')).toMatchObject({
      actor: 'Payment provider',
      actorIsPerson: false,
      target: { type: 'payment' },
      details: { domain: 'renewing-recorded.test', renewal: true, provider: 'demo' },
    });
  });
});
