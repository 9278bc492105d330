import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startAccountService,
  TestBrowser,
  type AccountService,
} from '../../../test/support/auth.js';
import { eventually } from '../../../test/support/service.js';
import { billingAccounts, outboxEmails, payments, users } from '#db/schema/index.js';
import { insertPayment } from '#db/stores/payments.js';
import { recordChargeSucceeded } from '../billing/charges.js';

/** Settings → Billing over HTTP: buyer details, the card on file, the invoice list and e-mail. */

let service: AccountService;
let nextIp = 1;

beforeAll(async () => {
  service = await startAccountService();
});
afterAll(() => service?.close());

async function signedIn(email: string) {
  const browser = new TestBrowser(service.app, `10.7.0.${nextIp++}`);
  const response = await browser.post('/api/auth/register', { email, password: 'Str0ng&Pass' });
  expect(response.statusCode).toBe(201);
  const [user] = await service.database.db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.email, email));
  return { browser, userId: user!.id };
}

async function put(browser: TestBrowser, url: string, payload: unknown) {
  return browser.get(url, {
    method: 'PUT',
    headers: {
      cookie: browser['cookieHeader'],
      'x-csrf-token': await browser.token(),
      'content-type': 'application/json',
    },
    payload: JSON.stringify(payload),
  });
}

describe('buyer details', () => {
  it('refuses bad details with a 400 naming the problem and keeps what was stored', async () => {
    const { browser, userId } = await signedIn('buyer@example.com');
    const good = await put(browser, '/api/billing/details', {
      legalName: 'Buyer GmbH',
      billingEmail: 'invoices@buyer.test',
      address: 'Hauptstr. 1\n10115 Berlin',
      country: 'de',
      taxId: 'DE123456789',
    });
    expect(good.statusCode).toBe(200);
    expect(good.json()).toMatchObject({ country: 'DE', taxId: 'DE123456789' });

    const cases: [unknown, string][] = [
      [{ legalName: '' }, 'legal name'],
      [{ legalName: 'X', billingEmail: 'nope' }, 'billing email'],
      [{ legalName: 'X', country: 'Deutschland' }, 'two-letter'],
      [{ legalName: 'X', vat: '1' }, 'vat'],
    ];
    for (const [body, words] of cases) {
      const response = await put(browser, '/api/billing/details', body);
      expect(response.statusCode).toBe(400);
      expect(JSON.stringify(response.json()).toLowerCase()).toContain(words);
    }
    const [stored] = await service.database.db
      .select({ legalName: billingAccounts.legalName, taxId: billingAccounts.taxId })
      .from(billingAccounts)
      .where(eq(billingAccounts.organisationId, userId));
    expect(stored).toEqual({ legalName: 'Buyer GmbH', taxId: 'DE123456789' });
    expect((await browser.get('/api/billing/details')).json()).toMatchObject({
      legalName: 'Buyer GmbH',
    });
  });
});

describe('card on file', () => {
  it('replaces the card with the demo form and shows brand, last four and expiry', async () => {
    const { browser } = await signedIn('card@example.com');
    expect((await browser.get('/api/billing/card')).json()).toEqual({
      provider: 'demo',
      card: null,
    });
    for (const [body, status] of [
      [{ cardNumber: '4242 4242 4242 4241', expiry: '12/40' }, 400],
      [{ cardNumber: '4242 4242 4242 4242', expiry: '01/20' }, 400],
      [{ cardNumber: '4242', expiry: '12/40' }, 400],
      [{ cardNumber: '4242 4242 4242 4242', expiry: '13/40' }, 400],
    ] as const) {
      expect((await browser.post('/api/billing/card', body)).statusCode).toBe(status);
    }
    const replaced = await browser.post('/api/billing/card', {
      cardNumber: '5555 5555 5555 4444',
      expiry: '08/39',
    });
    expect(replaced.statusCode).toBe(200);
    expect((await browser.get('/api/billing/card')).json().card).toMatchObject({
      brand: 'mastercard',
      last4: '4444',
      expMonth: 8,
      expYear: 2039,
    });
    // Never the number.
    const [account] = await service.database.db.select().from(billingAccounts);
    expect(JSON.stringify(account)).not.toContain('5555555555554444');
  });
});

describe('invoices', () => {
  it('lists an invoice with its PDF link and e-mails it once to the billing address', async () => {
    const { browser, userId } = await signedIn('payer@example.com');
    await put(browser, '/api/billing/details', {
      legalName: 'Payer Inc',
      billingEmail: 'ap@payer.test',
    });
    const id = `demo_route_${userId.slice(0, 8)}`;
    await insertPayment(service.database.db, {
      id,
      provider: 'demo',
      userId,
      purpose: 'add_domain',
      domain: 'payer.test',
      amountCents: 3900,
      status: 'succeeded',
    });
    const [row] = await service.database.db.select().from(payments).where(eq(payments.id, id));
    await service.database.db.transaction((tx) =>
      recordChargeSucceeded(tx, {
        payment: row!,
        status: 'succeeded',
        actor: { organisationId: userId, label: 'test' },
        now: new Date(),
      }),
    );
    const list = (await browser.get('/api/billing/invoices')).json();
    expect(list.invoices).toEqual([
      expect.objectContaining({
        kind: 'invoice',
        amountCents: 3900,
        pdfUrl: expect.stringMatching(/^\/api\/billing\/invoices\/[0-9a-f-]+\/pdf$/),
        hostedUrl: null,
      }),
    ]);
    // A call that can charge (adding a domain) sends, once it answers, what was issued and not
    // yet e-mailed; a second such call sends nothing again.
    expect((await browser.post('/api/domains', { domain: 'payer.test' })).statusCode).toBe(200);
    expect((await browser.post('/api/domains', { domain: 'payer-two.test' })).statusCode).toBe(200);
    const mails = await eventually(async () => {
      const rows = await service.database.db
        .select()
        .from(outboxEmails)
        .where(eq(outboxEmails.dedupeKey, `invoice:${list.invoices[0].id}`));
      return rows.length > 0 ? rows : undefined;
    });
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ to: 'ap@payer.test' });
    expect(mails[0]!.subject).toContain(list.invoices[0].number);
    expect(mails[0]!.text).toContain(list.invoices[0].pdfUrl);
  });

  it('answers 404 for another organisation’s invoice and 401 when signed out', async () => {
    const { browser } = await signedIn('nosy@example.com');
    const response = await browser.get(
      '/api/billing/invoices/00000000-0000-4000-8000-000000000000/pdf',
    );
    expect(response.statusCode).toBe(404);
    const anonymous = new TestBrowser(service.app, '10.7.9.9');
    expect((await anonymous.get('/api/billing/invoices')).statusCode).toBe(401);
  });
});
