import type { CreatePaymentIntentRequest, CreatePaymentIntentResponse } from '#contract/domains.js';
import { api } from '../../lib/api-client';

/**
 * Spec §7: amount, domain, isReactivation (plus our addOnId and pages). The server prices the
 * payment itself; the amount sent is only what the screen showed.
 */
export const createPaymentIntent = (input: CreatePaymentIntentRequest) =>
  api.post<CreatePaymentIntentResponse>('/api/create-payment-intent', input);
