import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import {
  catalogueFeatures,
  complianceShieldPlan,
  domainPriceCents,
  formatUsd,
  freeTier,
  monthlyEquivalentCents,
  reportRefundPolicy,
  yearlyDiscountPercent,
} from '#contract/catalogue.js';
import { PricingPage } from './pricing-page';

/**
 * The pricing page as a visitor's browser receives it, checked claim by claim against the
 * catalogue: every feature it lists is one the catalogue marks built, every limit one the server
 * enforces, every price one the catalogue computes. A claim added to the page by hand fails here.
 */

const render = (entry: string) =>
  renderToStaticMarkup(
    createElement(MemoryRouter, { initialEntries: [entry] }, createElement(PricingPage)),
  );
const html = render('/app/pricing');

const text = (fragment: string) =>
  fragment
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#x27;|&apos;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();

/** The items of every list on the page marked as holding claims of `kind`. */
function claims(kind: 'features' | 'limits'): string[] {
  const lists = [
    ...html.matchAll(new RegExp(`<ul[^>]*data-claims="${kind}"[^>]*>(.*?)</ul>`, 'gs')),
  ];
  return lists.flatMap((list) =>
    [...list[1]!.matchAll(/<li[^>]*>(.*?)<\/li>/gs)].map((li) => text(li[1]!)),
  );
}

describe('the pricing page says only what the catalogue holds', () => {
  it('names only features the catalogue marks built', () => {
    const built = new Set(
      catalogueFeatures.filter((feature) => feature.built).map((feature) => feature.label),
    );
    const named = claims('features');
    expect(named.length).toBeGreaterThan(5);
    for (const claim of named) expect(built, `"${claim}" is not built`).toContain(claim);
    // And every built feature is on the page once.
    expect([...named].sort()).toEqual([...new Set(named)].sort());
    expect(new Set(named)).toEqual(built);
  });

  it('states exactly the Free tier limits the server enforces', () => {
    expect(claims('limits')).toEqual(freeTier.limits.map((limit) => limit.label));
  });

  it('shows every tier price from the catalogue and no other price', () => {
    const prices = new Set(
      [1, 2, 3, 4, 5, complianceShieldPlan.volumeTier.fromDomainIndex].map((index) =>
        formatUsd(domainPriceCents(index, 'month')),
      ),
    );
    prices.add(formatUsd(0));
    const onPage = new Set(text(html).match(/\$\d+(?:\.\d\d)?/g));
    expect(onPage).toEqual(prices);
    expect(text(html)).toContain('20th domain and each after $5');
    expect(text(html)).toContain('5th to 19th domain $9');
  });

  it('sells nothing that is not built', () => {
    const page = text(html);
    for (const unbuilt of [
      /enterprise/i,
      /\bSLA\b/,
      /dedicated support/i,
      /priority support/i,
      /custom branding/i,
      /custom integrations/i,
      /money.back/i,
      /guarantee/i,
    ]) {
      expect(page).not.toMatch(unbuilt);
    }
    // Yearly prices appear only once yearly billing is on sale.
    if (!complianceShieldPlan.intervalsOnSale.includes('year')) {
      expect(page).not.toMatch(/yearly|annual|save \d+%/i);
    }
  });

  it('offers yearly billing with the catalogue’s yearly prices, as Settings → Billing sells it', () => {
    expect(complianceShieldPlan.intervalsOnSale).toContain('year');
    expect(html).toMatch(/role="switch"[^>]*aria-checked="false"/);
    const yearly = text(render('/app/pricing?billing=year'));
    const prices = new Set(
      [1, 2, 3, 4, 5, complianceShieldPlan.volumeTier.fromDomainIndex].map((index) =>
        formatUsd(monthlyEquivalentCents(domainPriceCents(index, 'month'), 'year')),
      ),
    );
    prices.add(formatUsd(0));
    prices.add(formatUsd(domainPriceCents(1, 'year')));
    expect(new Set(yearly.match(/\$\d+(?:\.\d\d)?/g))).toEqual(prices);
    expect(yearly).toContain(`${formatUsd(domainPriceCents(1, 'year'))} a year`);
    expect(yearly).toContain(`Save ${yearlyDiscountPercent}%`);
    expect(yearly).toContain('Settings → Billing');
  });

  it('states the one refund the server grants (ADR 0042): add-on reports rejected in a review, within the catalogue’s window', () => {
    const refund = html.match(/<p[^>]*data-claims="refund"[^>]*>(.*?)<\/p>/s);
    expect(refund).not.toBeNull();
    const said = text(refund![1]!);
    expect(said).toContain(
      `formally rejected in a procurement or compliance review, ask for a refund within ${reportRefundPolicy.withinDays} days`,
    );
    expect(reportRefundPolicy.grantedAtOnce).toBe(true);
    expect(said).toContain('refunded at once');
    expect(said).toContain('no one reviews the request');
    // A refund of the add-on reports, never a guarantee of the plan.
    expect(said).not.toMatch(/guarantee|money.back|subscription|month's/i);
  });
});
