import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../lib/api-client';
import { paymentRequiredOf } from './payment-required';

const pricing = {
  domain: 'shop.example.com',
  domainIndex: 2,
  monthlyPrice: 39,
  amount: 39,
  currency: 'USD',
  trial: false,
};

describe('paymentRequiredOf (spec §7: 402 with requiresPayment and pricing)', () => {
  it('reads the price the server asks for', () => {
    const body = JSON.stringify({
      error: 'Payment Required',
      message: 'Payment required for additional domain',
      requiresPayment: true,
      pricing,
    });
    expect(paymentRequiredOf(new ApiError(402, body, 'Payment Required'))).toEqual({
      error: 'Payment Required',
      message: 'Payment required for additional domain',
      requiresPayment: true,
      pricing,
    });
  });

  it('reads a 402 without pricing (no plan yet)', () => {
    const body = JSON.stringify({
      error: 'Payment Required',
      message: 'Subscription required for domain management',
      requiresPayment: true,
    });
    expect(paymentRequiredOf(new ApiError(402, body, ''))?.pricing).toBeUndefined();
  });

  it('is undefined for any other failure', () => {
    const failedPayment = JSON.stringify({ message: 'Payment Failed: card declined' });
    expect(paymentRequiredOf(new ApiError(402, failedPayment, ''))).toBeUndefined();
    expect(paymentRequiredOf(new ApiError(402, 'not json', ''))).toBeUndefined();
    expect(
      paymentRequiredOf(new ApiError(409, JSON.stringify({ requiresPayment: true }), '')),
    ).toBeUndefined();
    expect(paymentRequiredOf(new Error('network'))).toBeUndefined();
  });
});
