import { describe, expect, it } from 'vitest';
import { afterSignupPath, signupPlanOf } from './signup-plan';

describe('sign-up plan', () => {
  it('reads only the three plans of the pricing page', () => {
    expect(signupPlanOf('free')).toBe('free');
    expect(signupPlanOf('pro')).toBe('pro');
    expect(signupPlanOf('enterprise')).toBe('enterprise');
    expect(signupPlanOf('Pro')).toBeUndefined();
    expect(signupPlanOf('gold')).toBeUndefined();
    expect(signupPlanOf(null)).toBeUndefined();
  });

  it('sends a paid plan to activating Compliance Shield, unless a page asked to come back', () => {
    const none = { next: undefined, websiteUrl: null };
    expect(afterSignupPath({ ...none, plan: 'pro' })).toBe('/app/subscribe');
    expect(afterSignupPath({ ...none, plan: 'enterprise' })).toBe('/app/subscribe');
    expect(afterSignupPath({ ...none, plan: 'free' })).toBe('/app/dashboard');
    expect(afterSignupPath({ ...none, plan: undefined })).toBe('/app/dashboard');
    expect(afterSignupPath({ next: '/subscribe/x', plan: 'pro', websiteUrl: null })).toBe(
      '/subscribe/x',
    );
    expect(afterSignupPath({ next: undefined, plan: 'free', websiteUrl: 'https://a.test' })).toBe(
      '/app/scan?url=https%3A%2F%2Fa.test',
    );
  });
});
