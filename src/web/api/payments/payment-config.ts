import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PaymentConfigResponse } from '#contract/domains.js';
import { api } from '../../lib/api-client';

export const getPaymentConfig = () => api.get<PaymentConfigResponse>('/api/payments/config');

/** Which card form to show: the demo form, or Stripe's Payment Element. Fixed per server run. */
export const paymentConfigQueryOptions = () =>
  queryOptions({ queryKey: ['payments', 'config'], queryFn: getPaymentConfig });

export function usePaymentConfig() {
  return useQuery(paymentConfigQueryOptions());
}
