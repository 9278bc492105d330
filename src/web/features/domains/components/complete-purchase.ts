import { messageOf } from '../../../lib/api-client';
import { toast } from '../../../lib/toast-store';
import { usePurchaseAddOn } from '../api/add-ons';
import { useAddDomain, useReactivateDomain } from '../api/change-domain';
import type { Purchase } from './payment-dialog';

/** Spec §8: what failed after the payment went through. */
const completionFailure: Record<Purchase['kind'], string> = {
  'add-domain': 'Failed to complete domain addition',
  reactivate: 'Failed to complete reactivation',
  'add-on': 'Failed to complete add-on purchase',
};

/**
 * The last step of the payment flow (spec §4): with the paid payment's id, add the domain,
 * reactivate it or buy the add-on, and say how it went. Resolves true when it was completed.
 */
export function useCompletePurchase() {
  const addDomain = useAddDomain();
  const reactivate = useReactivateDomain();
  const purchaseAddOn = usePurchaseAddOn();
  return async (purchase: Purchase, paymentIntentId: string): Promise<boolean> => {
    try {
      if (purchase.kind === 'add-domain') {
        await addDomain.mutateAsync({ domain: purchase.domain, paymentIntentId });
        toast({
          title: 'Domain Added',
          description: `${purchase.domain} is now monitored by Compliance Shield.`,
          variant: 'success',
        });
      } else if (purchase.kind === 'reactivate') {
        await reactivate.mutateAsync({ domain: purchase.domain, paymentIntentId });
        toast({
          title: 'Domain Reactivated',
          description: `${purchase.domain} is monitored again.`,
          variant: 'success',
        });
      } else {
        const answer = await purchaseAddOn.mutateAsync({
          addOnId: purchase.addOn.id,
          domain: purchase.domain,
          paymentIntentId,
          pages: purchase.pages,
        });
        // A delivery that fell short was refunded at once (ADR 0042): say so, not "purchased".
        toast(
          answer.addOn.refund
            ? { title: 'Add-on Refunded', description: answer.message, variant: 'destructive' }
            : { title: 'Add-on Purchased', description: answer.message, variant: 'success' },
        );
      }
      return true;
    } catch (error) {
      toast({
        title: completionFailure[purchase.kind],
        description: messageOf(error, 'An unexpected error occurred'),
        variant: 'destructive',
      });
      return false;
    }
  };
}

const pendingKey = 'conformly:pending-purchase';

/**
 * A card that needs its bank's page (3-D Secure by redirect) leaves this page; Stripe brings the
 * browser back with `payment_intent` and `redirect_status`. What was being bought is kept here
 * for that tab until then, so the purchase can be completed on return.
 */
export function rememberPendingPurchase(purchase: Purchase, paymentIntentId: string): void {
  try {
    sessionStorage.setItem(pendingKey, JSON.stringify({ purchase, paymentIntentId }));
  } catch {
    // Storage refused (private mode): a redirect then needs the owner to buy again.
  }
}

/** The purchase waiting for `paymentIntentId`, taken out of storage; undefined when none. */
export function takePendingPurchase(paymentIntentId: string): Purchase | undefined {
  try {
    const text = sessionStorage.getItem(pendingKey);
    sessionStorage.removeItem(pendingKey);
    if (!text) return undefined;
    const pending = JSON.parse(text) as { purchase: Purchase; paymentIntentId: string };
    return pending.paymentIntentId === paymentIntentId ? pending.purchase : undefined;
  } catch {
    return undefined;
  }
}
