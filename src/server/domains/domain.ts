import { InvalidError } from '../http-errors.js';

const label = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';
const hostname = new RegExp(`^(?=.{1,253}$)${label}(?:\\.${label})+$`);

/**
 * The domain a public page is about, as scans store it: lowercase, punycode, without scheme,
 * "www.", port or path, so "https://WWW.Example.com/about" and "example.com" name one site.
 */
export function normalizeDomain(input: string): string {
  const text = input.trim().toLowerCase();
  const invalid = () =>
    new InvalidError(`"${text.slice(0, 100)}" is not a domain; use one such as example.com.`);
  if (text === '' || text.length > 300) throw invalid();
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//.test(text) ? text : `http://${text}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw invalid();
  }
  if (!['http:', 'https:'].includes(url.protocol) || url.username || url.password) throw invalid();
  const domain = domainOf(url);
  if (!hostname.test(domain)) throw invalid();
  return domain;
}

/**
 * The domain of a scanned address, as scans and audits store it: its host name without "www."
 * (already lowercase and punycode in a parsed URL), so it matches `normalizeDomain` of the same
 * site.
 */
export function domainOf(url: URL): string {
  return url.hostname.replace(/^www\./, '');
}

const dayMs = 86_400_000;

/** Whole days from `now` until `end`, rounded up (a part day left counts), never below 0. */
export function daysUntil(end: Date, now: Date): number {
  return Math.max(0, Math.ceil((end.getTime() - now.getTime()) / dayMs));
}
