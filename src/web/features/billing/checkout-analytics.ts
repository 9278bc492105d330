import { complianceShield, type SubscribeResponse } from '#contract/billing.js';

/** Spec §3 analytics: item name '{product} {plan} Plan', category Subscription, quantity 1. */
export const checkoutItemName = `${complianceShield.product} ${complianceShield.plan} Plan`;

export function subscriptionSelectedEvent(monthlyPrice: number) {
  return { plan_name: complianceShield.plan, price: monthlyPrice, currency: 'USD' };
}

/** The purchase event of a completed order; none when nothing new was bought. */
export function purchaseEvent(answer: SubscribeResponse): Record<string, unknown> | undefined {
  if (!answer.payment) return undefined;
  return {
    transaction_id: answer.payment.transactionId,
    value: answer.payment.amount,
    currency: answer.payment.currency,
    plan_name: complianceShield.plan,
    payment_provider: answer.payment.provider,
    items: [
      {
        item_id: complianceShield.planType,
        item_name: checkoutItemName,
        item_category: 'Subscription',
        price: answer.monthlyPrice,
        quantity: 1,
      },
    ],
  };
}
