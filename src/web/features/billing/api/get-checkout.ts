import { queryOptions, useQuery } from '@tanstack/react-query';
import type { CheckoutResponse } from '#contract/billing.js';
import { api } from '../../../lib/api-client';

export const getCheckout = (scanId: string) =>
  api.get<CheckoutResponse>(`/api/checkout/${encodeURIComponent(scanId)}`);

/**
 * What the checkout shows depends on who is signed in, so it is read afresh each time the page
 * opens (a visitor who logs in comes back to a personal quote).
 */
export const checkoutQueryOptions = (scanId: string) =>
  queryOptions({
    queryKey: ['checkout', scanId],
    queryFn: () => getCheckout(scanId),
    staleTime: 0,
  });

export function useCheckout(scanId: string) {
  return useQuery(checkoutQueryOptions(scanId));
}
