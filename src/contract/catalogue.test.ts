import { describe, expect, it } from 'vitest';
import {
  addOnPriceCents,
  catalogueAddOns,
  catalogueFeatures,
  CataloguePriceError,
  domainPriceCents,
  formatUsd,
  freeTier,
  monthlyEquivalentCents,
  yearlyPriceCents,
} from './catalogue.js';
import { domainMonthlyPriceUsd } from './billing.js';
import { addOnPrice, AddOnPriceError } from './domains.js';

describe('catalogue prices', () => {
  it('prices each domain by its position, with the volume tier from the 20th on', () => {
    const monthly = [1, 2, 3, 4, 5, 6, 19, 20, 21, 100].map((i) => domainPriceCents(i, 'month'));
    expect(monthly).toEqual([4900, 3900, 2900, 1900, 900, 900, 900, 500, 500, 500]);
  });

  it('charges a year as 12 months less 20 %, in whole cents', () => {
    expect(yearlyPriceCents(4900)).toBe(47040);
    expect(yearlyPriceCents(900)).toBe(8640);
    expect(yearlyPriceCents(333)).toBe(3197); // 3196.8 rounds up
    expect(domainPriceCents(1, 'year')).toBe(47040);
    expect(domainPriceCents(20, 'year')).toBe(4800);
  });

  it('gives the monthly equivalent of a yearly price', () => {
    expect(monthlyEquivalentCents(4900, 'month')).toBe(4900);
    expect(monthlyEquivalentCents(4900, 'year')).toBe(3920);
    expect(formatUsd(monthlyEquivalentCents(4900, 'year'))).toBe('$39.20');
    expect(formatUsd(4900)).toBe('$49');
  });

  it('refuses intervals and amounts it does not know', () => {
    expect(() => domainPriceCents(1, 'week' as 'month')).toThrow(CataloguePriceError);
    expect(() => domainPriceCents(Number.NaN, 'month')).toThrow(CataloguePriceError);
    expect(() => yearlyPriceCents(-1)).toThrow(CataloguePriceError);
    expect(() => yearlyPriceCents(1.5)).toThrow(CataloguePriceError);
  });

  it('prices add-ons as base + (pages - 1) x per page', () => {
    expect(addOnPriceCents('json-3-engines', 1)).toBe(700);
    expect(addOnPriceCents('json-3-engines', 2)).toBe(1000);
    expect(addOnPriceCents('pdf-ai-summary', 2)).toBe(3600);
    expect(() => addOnPriceCents('nope', 1)).toThrow('Unknown add-on ID');
    expect(() => addOnPriceCents('json-3-engines', 0)).toThrow('Pages must be at least 1');
    expect(() => addOnPriceCents('json-3-engines', 1.5)).toThrow('Pages must be at least 1');
  });

  it('keeps the older dollar readers in step with the catalogue', () => {
    expect(domainMonthlyPriceUsd(1)).toBe(49);
    expect(domainMonthlyPriceUsd(20)).toBe(5);
    for (const addOn of catalogueAddOns) {
      expect(addOnPrice(addOn.id, 3) * 100).toBe(addOnPriceCents(addOn.id, 3));
    }
    expect(() => addOnPrice('nope', 1)).toThrow(AddOnPriceError);
  });

  it('names no add-on "manual" and marks every feature built', () => {
    for (const addOn of catalogueAddOns) expect(addOn.name).not.toMatch(/manual/i);
    for (const feature of catalogueFeatures) expect(feature.built).toBe(true);
    const ids = new Set(catalogueFeatures.map((feature) => feature.id));
    for (const id of freeTier.features) expect(ids.has(id)).toBe(true);
    for (const limit of freeTier.limits) expect(ids.has(limit.feature)).toBe(true);
  });
});
