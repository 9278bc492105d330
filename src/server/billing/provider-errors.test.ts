import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startAccountService,
  TestBrowser,
  type AccountService,
} from '../../../test/support/auth.js';
import { domainHistory, domains, payments, scans, subscriptions, users } from '#db/schema/index.js';
import { StripePaymentProvider } from './stripe-provider.js';

/**
 * Stripe mode with the SDK pointed at a loopback server that does not answer as Stripe does:
 * every billing call that reaches the provider answers 502 with a message a person can act on,
 * and stores nothing (no plan row, no payment, no change to the account).
 */

type Answer = 'not-json' | 'empty-object';
let answer: Answer = 'not-json';
let junk: Server;
let service: AccountService;
let nextIp = 1;
const password = 'Str0ng&Pass';
const providerFailure =
  'The payment provider did not answer as expected, so nothing was changed. Please try again in a few minutes.';

beforeAll(async () => {
  junk = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(answer === 'not-json' ? '<html>upstream proxy says hello' : '{}');
    });
  });
  await new Promise<void>((resolve) => junk.listen(0, '127.0.0.1', resolve));
  const { port } = junk.address() as AddressInfo;
  service = await startAccountService(
    {},
    {
      payments: new StripePaymentProvider({
        secretKey: 'sk_test_junk',
        webhookSecret: 'whsec_junk',
        apiBase: { host: '127.0.0.1', port, protocol: 'http' },
      }),
    },
  );
});
afterAll(async () => {
  await service?.close();
  await new Promise((resolve) => junk?.close(resolve));
});

const db = () => service.database.db;

async function signedIn(email: string) {
  const browser = new TestBrowser(service.app, `10.7.0.${nextIp++}`);
  expect((await browser.post('/api/auth/register', { email, password })).statusCode).toBe(201);
  const [user] = await db().select({ id: users.id }).from(users).where(eq(users.email, email));
  return { browser, userId: user!.id };
}

/** What a billing call could write: the account's row, its plan, payments, domains. */
async function stored(userId: string) {
  return {
    user: await db().select().from(users).where(eq(users.id, userId)),
    subscriptions: await db().select().from(subscriptions).where(eq(subscriptions.userId, userId)),
    payments: await db().select().from(payments).where(eq(payments.userId, userId)),
    domains: await db().select().from(domains).where(eq(domains.userId, userId)),
    history: await db().select().from(domainHistory).where(eq(domainHistory.userId, userId)),
  };
}

describe.each<Answer>(['not-json', 'empty-object'])('a provider that answers %s', (kind) => {
  beforeAll(() => {
    answer = kind;
  });

  it('POST /api/create-subscription answers 502 and stores no plan, payment or account change', async () => {
    const { browser, userId } = await signedIn(`card-${kind}@example.com`);
    const before = await stored(userId);
    const response = await browser.post('/api/create-subscription', {});
    expect(response.statusCode).toBe(502);
    expect(response.json()).toEqual({ message: providerFailure });
    expect(await stored(userId)).toEqual(before);
    expect(before.subscriptions).toEqual([]);
  });

  it('POST /api/create-payment-intent answers 502 and records no payment', async () => {
    const { browser, userId } = await signedIn(`intent-${kind}@example.com`);
    // Its free month was had before, so the first month is due now.
    await db()
      .insert(domainHistory)
      .values({
        domain: `intent-${kind}.test`,
        userId,
        action: 'trial_started',
        status: 'trial',
        trialUsed: true,
      });
    const before = await stored(userId);
    const response = await browser.post('/api/create-payment-intent', {
      domain: `intent-${kind}.test`,
    });
    expect(response.statusCode).toBe(502);
    expect(response.json()).toEqual({ message: providerFailure });
    expect(await stored(userId)).toEqual(before);
  });

  it('POST /api/subscribe answers 502 and enrols nothing', async () => {
    const email = `checkout-${kind}@example.com`;
    const { browser, userId } = await signedIn(email);
    const [scan] = await db()
      .insert(scans)
      .values({
        userId,
        url: `https://checkout-${kind}.test/`,
        domain: `checkout-${kind}.test`,
        status: 'completed',
        completedAt: new Date(),
      })
      .returning({ id: scans.id });
    const before = await stored(userId);
    const response = await browser.post('/api/subscribe', {
      scanId: scan!.id,
      domain: `checkout-${kind}.test`,
      email,
    });
    expect(response.statusCode).toBe(502);
    expect(response.json()).toEqual({ message: providerFailure });
    expect(await stored(userId)).toEqual(before);
  });

  it('POST /api/subscription/cancel answers 502 and leaves the plan running', async () => {
    const { browser, userId } = await signedIn(`cancel-${kind}@example.com`);
    const now = new Date();
    await db()
      .insert(subscriptions)
      .values({
        userId,
        status: 'active',
        planType: 'compliance_shield',
        stripeSubscriptionId: `sub_cancel_${kind.replace('-', '_')}`,
        currentPeriodStart: now,
        currentPeriodEnd: new Date(now.getTime() + 30 * 86_400_000),
      });
    const before = await stored(userId);
    const response = await browser.post('/api/subscription/cancel', {});
    expect(response.statusCode).toBe(502);
    expect(response.json()).toEqual({ message: providerFailure });
    expect(await stored(userId)).toEqual(before);
  });
});
