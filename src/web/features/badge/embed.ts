import type { BadgeLanguage, BadgeSettings } from '#contract/badge.js';
import { paths } from '../../lib/paths';

/**
 * The badge address and the HTML an owner pastes into their site. Every option is written out, so
 * the pasted badge looks the same whatever the saved settings become later.
 */

export function badgeQuery(settings: BadgeSettings, lang: BadgeLanguage): string {
  const query = new URLSearchParams({
    variant: settings.variant,
    style: settings.style,
    size: settings.size,
    iconSize: String(settings.iconSize),
    orientation: settings.orientation,
    theme: settings.theme,
    showPercentage: String(settings.showPercentage),
    showDate: String(settings.showDate),
    lang,
  });
  return query.toString();
}

/** `/badge/{domain}?…`, the address the copied HTML names (spec §2 "Other routes"). */
export function badgePath(domain: string, settings: BadgeSettings, lang: BadgeLanguage): string {
  return `/badge/${encodeURIComponent(domain)}?${badgeQuery(settings, lang)}`;
}

const escapeHtml = (text: string) =>
  text
    .replaceAll('&', '&amp;')
    .replaceAll('"', '&quot;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;');

/** The image's text alternative: it is also the link's name, so it says where the link goes. */
export function badgeAlt(domain: string): string {
  return `Accessibility of ${domain} monitored by Conformly: open the public status page`;
}

/** A link to the domain's public status page around the live badge image. */
export function embedCode(
  origin: string,
  domain: string,
  settings: BadgeSettings,
  lang: BadgeLanguage,
): string {
  const statusUrl = `${origin}${paths.status.getHref(domain)}`;
  const imageUrl = `${origin}${badgePath(domain, settings, lang)}`;
  return (
    `<a href="${escapeHtml(statusUrl)}">` +
    `<img src="${escapeHtml(imageUrl)}" alt="${escapeHtml(badgeAlt(domain))}"></a>`
  );
}
