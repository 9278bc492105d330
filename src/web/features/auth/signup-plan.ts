import { signupPlans } from '#contract/auth.js';
import { paths } from '../../lib/paths';

export type SignupPlan = (typeof signupPlans)[number];

/** The plan a visitor chose on the pricing page (`/app/signup?plan=`), if it names one. */
export function signupPlanOf(value: string | null | undefined): SignupPlan | undefined {
  return signupPlans.find((plan) => plan === value);
}

/**
 * Where a new account goes after signing up: back to the page that sent it (`next`); to
 * activating Compliance Shield when it chose a paid plan; to the scan of the site it came with;
 * else to the dashboard.
 */
export function afterSignupPath(options: {
  next: string | undefined;
  plan: SignupPlan | undefined;
  websiteUrl: string | null;
}): string {
  if (options.next) return options.next;
  if (options.plan === 'pro' || options.plan === 'enterprise') return paths.appSubscribe.getHref();
  if (options.websiteUrl) return paths.scan.getHref(options.websiteUrl);
  return paths.dashboard.getHref();
}
