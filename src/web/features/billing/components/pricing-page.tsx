import { Check, Minus } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import type { signupPlans } from '#contract/auth.js';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { cn } from '../../../lib/cn';
import { usePageTitle } from '../../../lib/page-title';
import { paths } from '../../../lib/paths';
import { defaultMonitorPageBudget } from '#contract/site-monitoring.js';

/** Spec dashboard-area §3 "Plan entries", public-area §9 and dashboard-area §6 tiers. */
interface Plan {
  id: (typeof signupPlans)[number];
  name: string;
  price: { monthly: string; annual: string };
  period: { monthly: string; annual: string };
  description: string;
  features: string[];
  limitations: string[];
  cta: string;
  popular: boolean;
}

const plans: Plan[] = [
  {
    id: 'free',
    name: 'Free',
    price: { monthly: '$0', annual: '$0' },
    period: { monthly: 'forever', annual: 'forever' },
    description: 'Check a site and show where it stands.',
    features: ['Basic scan', 'Public audit page', 'Badge', 'Basic score', 'Community support'],
    limitations: ['No PDF statement', 'No VPAT export', 'Limited history'],
    cta: 'Get Started Free',
    popular: false,
  },
  {
    id: 'pro',
    name: 'Pro',
    price: { monthly: '$49', annual: '$39' },
    period: { monthly: '/month', annual: '/month, billed annually' },
    description: 'Compliance Shield: continuous monitoring for your site. First month free.',
    features: [
      'Everything in Free',
      `Weekly site audits of up to ${defaultMonitorPageBudget} pages per site`,
      'PDF statement',
      'Detailed reports',
      'Priority support',
      'History and analytics',
      'Custom branding',
      'Email notifications',
    ],
    limitations: [],
    cta: 'Start Free Month',
    popular: true,
  },
  {
    id: 'enterprise',
    name: 'Enterprise',
    price: { monthly: '$499', annual: '$399' },
    period: { monthly: '/year', annual: '/year, billed annually' },
    description: 'For organisations with many sites and procurement needs.',
    features: [
      'Everything in Pro',
      'VPAT export',
      'OpenACR',
      'API access',
      'Multiple team members',
      'Custom integrations',
      'Dedicated support',
      'SLA',
    ],
    limitations: [],
    cta: 'Choose Enterprise',
    popular: false,
  },
];

/** /app/pricing: the three tiers, monthly or annual, each leading to sign-up with its plan. */
export function PricingPage() {
  usePageTitle('Pricing');
  const [annual, setAnnual] = useState(false);
  const billing = annual ? 'annual' : 'monthly';
  return (
    <div className="mx-auto max-w-6xl px-4 py-12">
      <h1 className="text-center text-4xl font-bold">Simple, transparent pricing</h1>
      <p className="mx-auto mt-3 max-w-2xl text-center text-slate-700">
        Start free. Upgrade when you want monitoring, documents and a public record of your
        accessibility work. Prices in USD.
      </p>
      <div className="mt-8 flex items-center justify-center gap-3">
        <span id="billing-label" className="font-semibold">
          Annual billing
        </span>
        <button
          type="button"
          role="switch"
          aria-checked={annual}
          aria-labelledby="billing-label"
          onClick={() => setAnnual((value) => !value)}
          className={cn(
            'relative inline-flex h-7 w-12 shrink-0 items-center rounded-full border-2 border-transparent transition-colors motion-reduce:transition-none',
            annual ? 'bg-brand-600' : 'bg-slate-500',
          )}
        >
          <span
            aria-hidden="true"
            className={cn(
              'inline-block h-6 w-6 rounded-full bg-white shadow transition-transform motion-reduce:transition-none',
              annual ? 'translate-x-5' : 'translate-x-0',
            )}
          />
        </button>
        <span className="rounded-full bg-green-100 px-2 py-0.5 text-sm font-bold text-green-900">
          Save 20%
        </span>
      </div>
      <ul className="mt-10 grid gap-6 md:grid-cols-3">
        {plans.map((plan) => (
          <li key={plan.id}>
            <Card
              className={cn(
                'flex h-full flex-col',
                plan.popular && 'border-2 border-brand-600 shadow-lg',
              )}
            >
              <div className="flex items-center justify-between gap-2">
                <h2 className="text-2xl font-bold">{plan.name}</h2>
                {plan.popular && (
                  <span className="rounded-full bg-brand-600 px-2 py-0.5 text-xs font-bold text-white">
                    Most popular
                  </span>
                )}
              </div>
              <p className="mt-2 text-slate-700">{plan.description}</p>
              <p className="mt-4">
                <span className="text-4xl font-extrabold">{plan.price[billing]}</span>{' '}
                <span className="text-slate-700">{plan.period[billing]}</span>
              </p>
              <ul className="mt-6 grid gap-2 text-sm" aria-label={`${plan.name} includes`}>
                {plan.features.map((feature) => (
                  <li key={feature} className="flex gap-2">
                    <Check aria-hidden="true" className="h-5 w-5 shrink-0 text-ok" />
                    {feature}
                  </li>
                ))}
              </ul>
              {plan.limitations.length > 0 && (
                <ul
                  className="mt-3 grid gap-2 text-sm text-slate-700"
                  aria-label={`${plan.name} does not include`}
                >
                  {plan.limitations.map((limitation) => (
                    <li key={limitation} className="flex gap-2">
                      <Minus aria-hidden="true" className="h-5 w-5 shrink-0" />
                      {limitation}
                    </li>
                  ))}
                </ul>
              )}
              <div className="mt-auto pt-8">
                <Button
                  asChild
                  size="lg"
                  variant={plan.popular ? 'default' : 'outline'}
                  className="w-full"
                >
                  <Link to={paths.signup.getHref({ plan: plan.id })}>
                    {plan.cta}
                    <span className="sr-only"> with the {plan.name} plan</span>
                  </Link>
                </Button>
              </div>
            </Card>
          </li>
        ))}
      </ul>
    </div>
  );
}
