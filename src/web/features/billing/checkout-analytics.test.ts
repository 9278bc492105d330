import { describe, expect, it } from 'vitest';
import type { SubscribeResponse } from '#contract/billing.js';
import { purchaseEvent, subscriptionSelectedEvent } from './checkout-analytics';

const answer: SubscribeResponse = {
  success: true,
  domain: 'shop.test',
  subscriptionId: '0b7c0d6e-1a56-4f1e-9d7e-3f1f7f1e2a10',
  domainStatus: 'trial',
  monthlyPrice: 49,
  trialEndsAt: '2026-02-28T09:00:00.000Z',
  payment: { provider: 'demo', demo: true, transactionId: 'demo_abc', amount: 0, currency: 'USD' },
};

describe('checkout analytics', () => {
  it('describes the purchase as the spec names it', () => {
    expect(purchaseEvent(answer)).toEqual({
      transaction_id: 'demo_abc',
      value: 0,
      currency: 'USD',
      plan_name: 'Professional',
      payment_provider: 'demo',
      items: [
        {
          item_id: 'compliance_shield',
          item_name: 'Compliance Shield Professional Plan',
          item_category: 'Subscription',
          price: 49,
          quantity: 1,
        },
      ],
    });
  });

  it('records no purchase when the domain was already monitored (nothing was bought)', () => {
    expect(purchaseEvent({ ...answer, payment: null })).toBeUndefined();
  });

  it('names the plan, price and currency when the plan is chosen', () => {
    expect(subscriptionSelectedEvent(39)).toEqual({
      plan_name: 'Professional',
      price: 39,
      currency: 'USD',
    });
  });
});
