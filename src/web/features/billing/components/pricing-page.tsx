import { Check, Minus } from 'lucide-react';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import {
  catalogueFeatures,
  complianceShieldPlan,
  domainPriceCents,
  domainTierRows,
  formatUsd,
  freeTier,
  monthlyEquivalentCents,
  reportRefundPolicy,
  yearlyDiscountPercent,
} from '#contract/catalogue.js';
import type { BillingInterval } from '#contract/invoice.js';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { cn } from '../../../lib/cn';
import { usePageTitle } from '../../../lib/page-title';
import { paths } from '../../../lib/paths';

/**
 * /app/pricing, rendered from the catalogue (src/contract/catalogue.ts, ADR 0034): the Free tier
 * with its enforced limits and Compliance Shield with its per-domain tiers. Every feature named
 * here is one the catalogue marks built; pricing-page.test.ts fails when the page names another.
 */

const freeFeatures = catalogueFeatures.filter((feature) =>
  (freeTier.features as readonly string[]).includes(feature.id),
);
const shieldFeatures = catalogueFeatures.filter(
  (feature) =>
    (feature.plans as readonly string[]).includes('pro') &&
    !(freeTier.features as readonly string[]).includes(feature.id),
);

function FeatureList({ label, items }: { label: string; items: readonly string[] }) {
  return (
    <ul className="mt-6 grid gap-2 text-sm" aria-label={label} data-claims="features">
      {items.map((item) => (
        <li key={item} className="flex gap-2">
          <Check aria-hidden="true" className="h-5 w-5 shrink-0 text-ok" />
          {item}
        </li>
      ))}
    </ul>
  );
}

export function PricingPage() {
  usePageTitle('Pricing');
  const intervals = complianceShieldPlan.intervalsOnSale;
  // `?billing=year` opens the page on the yearly prices (a link from the FAQ or an e-mail).
  const [search] = useSearchParams();
  const [interval, setInterval] = useState<BillingInterval>(
    search.get('billing') === 'year' && intervals.includes('year') ? 'year' : 'month',
  );
  const yearly = interval === 'year';
  const trialMonths = complianceShieldPlan.firstMonthFree.months;
  return (
    <div className="mx-auto max-w-6xl px-4 py-12">
      <h1 className="text-center text-4xl font-bold">Simple, transparent pricing</h1>
      <p className="mx-auto mt-3 max-w-2xl text-center text-slate-700">
        Scanning is free. Pay per domain you want monitored, with its first month free. Prices in
        USD.
      </p>
      {intervals.includes('year') && (
        <div className="mt-8 flex items-center justify-center gap-3">
          <span id="billing-label" className="font-semibold">
            Yearly billing
          </span>
          <button
            type="button"
            role="switch"
            aria-checked={yearly}
            aria-labelledby="billing-label"
            onClick={() => setInterval(yearly ? 'month' : 'year')}
            className={cn(
              'relative inline-flex h-7 w-12 shrink-0 items-center rounded-full border-2 border-transparent transition-colors motion-reduce:transition-none',
              yearly ? 'bg-brand-600' : 'bg-slate-500',
            )}
          >
            <span
              aria-hidden="true"
              className={cn(
                'inline-block h-6 w-6 rounded-full bg-white shadow transition-transform motion-reduce:transition-none',
                yearly ? 'translate-x-5' : 'translate-x-0',
              )}
            />
          </button>
          <span className="rounded-full bg-green-100 px-2 py-0.5 text-sm font-bold text-green-900">
            Save {yearlyDiscountPercent}%
          </span>
        </div>
      )}
      <ul className="mt-10 grid gap-6 md:grid-cols-2">
        <li>
          <Card className="flex h-full flex-col">
            <h2 className="text-2xl font-bold">{freeTier.name}</h2>
            <p className="mt-2 text-slate-700">Check any page and show where it stands.</p>
            <p className="mt-4">
              <span className="text-4xl font-extrabold">{formatUsd(0)}</span>{' '}
              <span className="text-slate-700">forever</span>
            </p>
            <FeatureList
              label={`${freeTier.name} includes`}
              items={freeFeatures.map((f) => f.label)}
            />
            <ul
              className="mt-3 grid gap-2 text-sm text-slate-700"
              aria-label={`${freeTier.name} does not include`}
              data-claims="limits"
            >
              {freeTier.limits.map((limit) => (
                <li key={limit.id} className="flex gap-2">
                  <Minus aria-hidden="true" className="h-5 w-5 shrink-0" />
                  {limit.label}
                </li>
              ))}
            </ul>
            <div className="mt-auto pt-8">
              <Button asChild size="lg" variant="outline" className="w-full">
                <Link to={paths.signup.getHref({ plan: 'free' })}>
                  Get Started Free
                  <span className="sr-only"> with the {freeTier.name} plan</span>
                </Link>
              </Button>
            </div>
          </Card>
        </li>
        <li>
          <Card className="flex h-full flex-col border-2 border-brand-600 shadow-lg">
            <h2 className="text-2xl font-bold">{complianceShieldPlan.product}</h2>
            <p className="mt-2 text-slate-700">
              Continuous monitoring, priced per domain. Every new domain&apos;s first{' '}
              {trialMonths === 1 ? 'month is' : `${trialMonths} months are`} free.
            </p>
            <p className="mt-4">
              <span className="text-4xl font-extrabold" data-price="first-domain">
                {formatUsd(monthlyEquivalentCents(domainPriceCents(1, 'month'), interval))}
              </span>{' '}
              <span className="text-slate-700">
                a month for your first domain{yearly ? ', billed yearly' : ''}
              </span>
            </p>
            {yearly && (
              <p className="mt-1 text-sm text-slate-700" data-price="first-domain-year">
                {formatUsd(domainPriceCents(1, 'year'))} a year, {yearlyDiscountPercent}% less than
                12 months. New accounts pay monthly; switch to yearly in Settings → Billing, where
                the unused part of a paid month is credited.
              </p>
            )}
            <table className="mt-4 w-full text-sm" data-claims="tiers">
              <caption className="text-left font-semibold">
                Each further domain, a month{yearly ? ', billed yearly' : ''}
              </caption>
              <tbody>
                {domainTierRows(interval).map((row) => (
                  <tr key={row.label} className="border-b border-slate-200">
                    <th scope="row" className="py-1 text-left font-normal">
                      {row.label}
                    </th>
                    <td className="py-1 text-right font-semibold">{formatUsd(row.monthlyCents)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            <FeatureList
              label={`${complianceShieldPlan.product} adds`}
              items={shieldFeatures.map((f) => f.label)}
            />
            <div className="mt-auto pt-8">
              <Button asChild size="lg" className="w-full">
                <Link to={paths.signup.getHref({ plan: 'pro' })}>
                  Start Free Month
                  <span className="sr-only"> of {complianceShieldPlan.product}</span>
                </Link>
              </Button>
            </div>
          </Card>
        </li>
      </ul>
      <p className="mx-auto mt-8 max-w-2xl text-center text-sm text-slate-700" data-claims="refund">
        One-time add-on reports: if a report you bought is formally rejected in a procurement or
        compliance review, ask for a refund within {reportRefundPolicy.withinDays} days from the
        domain&apos;s add-on list. It is refunded at once, with a credit note; no one reviews the
        request. A report that covers fewer pages than you bought is refunded without asking.
      </p>
    </div>
  );
}
