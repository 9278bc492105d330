import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startAccountService,
  TestBrowser,
  type AccountService,
} from '../../../test/support/auth.js';
import { billingAccountOf } from '../../../test/support/billing-account.js';
import { seedDomain } from '../../../test/support/dashboard-seed.js';
import { IntervalChangePreview, IntervalChangeResponse } from '#contract/index.js';
import { billingAccounts, domains, payments, users } from '#db/schema/index.js';
import { setBillingAccount } from '../../../test/support/billing-account.js';
import { sweepLifecycle } from './lifecycle.js';
import { DemoPaymentProvider } from './payments.js';

/** Annual billing and the volume tier over HTTP: figures shown, charged once, tampering refused. */

let service: AccountService;
let nextIp = 1;
const password = 'Str0ng&Pass';
const dayMs = 86_400_000;

beforeAll(async () => {
  service = await startAccountService();
});
afterAll(() => service?.close());

const db = () => service.database.db;

async function signedIn(email: string) {
  const browser = new TestBrowser(service.app, `10.7.0.${nextIp++}`);
  const response = await browser.post('/api/auth/register', { email, password });
  expect(response.statusCode).toBe(201);
  const [user] = await db().select({ id: users.id }).from(users).where(eq(users.email, email));
  return { browser, userId: user!.id };
}

/** Everything a refused call must leave as it was. */
async function snapshot(userId: string) {
  return {
    account: await db()
      .select()
      .from(billingAccounts)
      .where(eq(billingAccounts.organisationId, userId)),
    domains: await db()
      .select()
      .from(domains)
      .where(eq(domains.userId, userId))
      .orderBy(domains.id),
    payments: await db().select().from(payments).where(eq(payments.userId, userId)),
  };
}

describe('switching to yearly billing', () => {
  it('shows the prorated figures, charges them once through the demo provider, and bills a year', async () => {
    const { browser, userId } = await signedIn('yearly@example.com');
    // Two paid domains, each half-way through its month (bought 15 days ago, a month each).
    const bought = new Date(Date.now() - 15 * dayMs);
    await seedDomain(db(), userId, { domain: 'year-one.test', index: 1, createdAt: bought });
    await seedDomain(db(), userId, { domain: 'year-two.test', index: 2, createdAt: bought });
    await db()
      .update(domains)
      .set({ monthlyPrice: 3900 })
      .where(eq(domains.domain, 'year-two.test'));

    const shown = await browser.get('/api/billing/interval?interval=year');
    expect(shown.statusCode).toBe(200);
    const preview = IntervalChangePreview.parse(shown.json());
    // A year is 12 months less the catalogue's 20 %: $470.40 and $374.40.
    expect(preview).toMatchObject({
      currentInterval: 'month',
      interval: 'year',
      effective: 'now',
      chargeCents: 47040 + 37440,
      yearlyDiscountPercent: 20,
    });
    // About half of each month is unused and credited.
    const [one, two] = preview.lines;
    expect(one).toMatchObject({ domain: 'year-one.test', priceCents: 47040 });
    expect(one!.creditCents).toBeGreaterThan(2000);
    expect(one!.creditCents).toBeLessThan(2900);
    expect(two!.creditCents).toBeGreaterThan(1600);
    expect(two!.creditCents).toBeLessThan(2300);
    expect(preview.dueCents).toBe(preview.chargeCents - preview.creditCents);
    // Seeing the figures changed nothing.
    expect((await billingAccountOf(db(), userId)).interval).toBe('month');

    const confirmed = await browser.post('/api/billing/interval', { interval: 'year' });
    expect(confirmed.statusCode).toBe(200);
    const answer = IntervalChangeResponse.parse(confirmed.json());
    expect(answer.payment).toMatchObject({ amountCents: preview.dueCents, demo: true });
    expect(answer.dueCents).toBe(preview.dueCents);

    const account = await billingAccountOf(db(), userId);
    expect(account.interval).toBe('year');
    expect(account.intervalChangedAt).toEqual(expect.any(Date));
    const rows = await db().select().from(domains).where(eq(domains.userId, userId));
    for (const row of rows) {
      const daysLeft = (row.currentPeriodEnd!.getTime() - Date.now()) / dayMs;
      expect(daysLeft).toBeGreaterThan(360);
      expect(daysLeft).toBeLessThan(367);
    }
    const paid = await db().select().from(payments).where(eq(payments.userId, userId));
    expect(paid).toEqual([
      expect.objectContaining({
        id: answer.payment!.transactionId,
        amountCents: preview.dueCents,
        status: 'succeeded',
        consumedAt: expect.any(Date),
      }),
    ]);

    // A second switch to yearly is refused: nothing is charged twice.
    const before = await snapshot(userId);
    const again = await browser.post('/api/billing/interval', { interval: 'year' });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toMatch(/already billed yearly/);
    expect(await snapshot(userId)).toEqual(before);
  });

  it('refuses tampered intervals and amounts with a 400 and stores nothing', async () => {
    const { browser, userId } = await signedIn('tamper@example.com');
    await seedDomain(db(), userId, { domain: 'tamper-one.test', index: 1 });
    const before = await snapshot(userId);
    for (const body of [
      { interval: 'week' },
      { interval: 'year', amountCents: 1 },
      { interval: 'year', dueCents: 0 },
      { interval: 'year', domainIndex: 20 },
      {},
    ]) {
      const response = await browser.post('/api/billing/interval', body);
      expect([JSON.stringify(body), response.statusCode]).toEqual([JSON.stringify(body), 400]);
      expect(response.json().message).toEqual(expect.any(String));
    }
    expect((await browser.get('/api/billing/interval?interval=week')).statusCode).toBe(400);
    expect(await snapshot(userId)).toEqual(before);
  });

  it('asks nothing of a visitor who is not signed in', async () => {
    const visitor = new TestBrowser(service.app, `10.7.1.1`);
    expect((await visitor.get('/api/billing/interval?interval=year')).statusCode).toBe(401);
  });
});

describe('the volume tier', () => {
  it('prices the 20th domain at the volume price, and refuses a client-sent position', async () => {
    const { browser, userId } = await signedIn('volume@example.com');
    for (let index = 1; index <= 19; index += 1) {
      await seedDomain(db(), userId, { domain: `vol-${index}.test`, index, verified: true });
    }
    const before = await snapshot(userId);
    const tampered = await browser.post('/api/domains', {
      domain: 'vol-20.test',
      domainIndex: 1,
    });
    expect(tampered.statusCode).toBe(400);
    expect(await snapshot(userId)).toEqual(before);

    const added = await browser.post('/api/domains', { domain: 'vol-20.test' });
    expect(added.statusCode).toBe(200);
    expect(added.json().domain).toMatchObject({
      domain: 'vol-20.test',
      domainIndex: 20,
      monthlyPrice: 5,
    });
  });
});

describe('renewal at the yearly interval', () => {
  it('charges a year at the yearly price and runs the domain a year more', async () => {
    const { userId } = await signedIn('renew-yearly@example.com');
    await setBillingAccount(db(), userId, { interval: 'year', cardAdded: true });
    const ended = new Date(Date.now() - dayMs);
    await db()
      .insert(domains)
      .values({
        userId,
        domain: 'renew-yearly.test',
        status: 'active',
        domainIndex: 20,
        monthlyPrice: 500,
        monitoringSince: new Date(ended.getTime() - 365 * dayMs),
        currentPeriodEnd: ended,
      });
    const result = await sweepLifecycle(db(), new DemoPaymentProvider(), new Date());
    expect(result.renewed).toContain('renew-yearly.test');
    // The volume tier's $5 a month, a year less 20 %: $48.
    const charged = await db().select().from(payments).where(eq(payments.userId, userId));
    expect(charged).toEqual([expect.objectContaining({ amountCents: 4800, status: 'succeeded' })]);
    const [row] = await db().select().from(domains).where(eq(domains.domain, 'renew-yearly.test'));
    const daysLeft = (row!.currentPeriodEnd!.getTime() - Date.now()) / dayMs;
    expect(daysLeft).toBeGreaterThan(360);
  });
});
