import { describe, expect, it } from 'vitest';
import {
  addDomainFormSchema,
  emptyDomainMessage,
  formatUsd,
  nextDomainPrice,
  noDotDomainMessage,
  pagesOf,
} from './domain-form';

const messageOf = (domain: string) =>
  addDomainFormSchema.safeParse({ domain }).error?.issues[0]?.message;

describe('add-domain form (spec §5)', () => {
  it('asks for a domain when the field is empty or blank', () => {
    expect(messageOf('')).toBe(emptyDomainMessage);
    expect(messageOf('   ')).toBe(emptyDomainMessage);
  });

  it('asks for a domain with a dot', () => {
    expect(messageOf('localhost')).toBe(noDotDomainMessage);
  });

  it('takes a domain, trimmed', () => {
    expect(addDomainFormSchema.parse({ domain: '  shop.example.com ' })).toEqual({
      domain: 'shop.example.com',
      startUrl: '',
    });
  });

  it('takes an optional start address, trimmed, and refuses one too long', () => {
    expect(
      addDomainFormSchema.parse({
        domain: 'shop.example.com',
        startUrl: ' https://www.shop.example.com/en/ ',
      }),
    ).toEqual({ domain: 'shop.example.com', startUrl: 'https://www.shop.example.com/en/' });
    const long = addDomainFormSchema.safeParse({
      domain: 'shop.example.com',
      startUrl: `https://shop.example.com/${'a'.repeat(2048)}`,
    });
    expect(long.success).toBe(false);
  });
});

describe('next domain price (spec §9 tiers)', () => {
  const with_ = (...statuses: ('active' | 'trial' | 'grace_period' | 'expired' | 'archived')[]) =>
    statuses.map((status) => ({ status }));

  it('counts every domain that is not archived, as the server does', () => {
    expect(nextDomainPrice([])).toBe(49);
    expect(nextDomainPrice(with_('trial'))).toBe(39);
    expect(nextDomainPrice(with_('archived', 'archived'))).toBe(49);
    expect(nextDomainPrice(with_('active', 'archived', 'expired', 'grace_period'))).toBe(19);
    expect(nextDomainPrice(with_('active', 'trial', 'active'))).toBe(19);
    expect(nextDomainPrice(with_('active', 'active', 'active', 'active', 'active', 'active'))).toBe(
      9,
    );
  });
});

describe('add-on pages (spec §5)', () => {
  it('falls back to 1 for anything but a whole number of at least 1', () => {
    expect(pagesOf('3')).toBe(3);
    expect(pagesOf(' 12 ')).toBe(12);
    for (const text of ['', '0', '-2', '1.5', 'abc', 'NaN']) expect(pagesOf(text)).toBe(1);
  });
});

describe('formatUsd', () => {
  it('shows cents only when there are some', () => {
    expect(formatUsd(39)).toBe('$39');
    expect(formatUsd(29.99)).toBe('$29.99');
    expect(formatUsd(0.5)).toBe('$0.50');
  });
});
