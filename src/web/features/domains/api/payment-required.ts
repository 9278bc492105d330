import type { PaymentRequiredResponse } from '#contract/domains.js';
import { ApiError } from '../../../lib/api-client';

/** The body of a 402 answer asking for payment first (spec §7), or undefined for any other error. */
export function paymentRequiredOf(error: unknown): PaymentRequiredResponse | undefined {
  if (!(error instanceof ApiError) || error.status !== 402) return undefined;
  try {
    const body = JSON.parse(error.body) as Partial<PaymentRequiredResponse>;
    if (body.requiresPayment !== true) return undefined;
    return {
      error: body.error ?? 'Payment Required',
      message: body.message ?? '',
      requiresPayment: true,
      ...(body.pricing ? { pricing: body.pricing } : {}),
    };
  } catch {
    return undefined;
  }
}
