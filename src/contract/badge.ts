import { z } from 'zod';
import { DomainStatus } from './domains.js';

/**
 * The live badge (spec dashboard-area §2 badge configurator, §3 "Badge config", §7 `GET
 * /api/badge/{domain}`). Variants: `standard` (the spec's "other": label and evidence), `mini`
 * (short label) and `icon` (a square mark of 16, 24 or 32 px); `style` is badge-maker's look.
 */

export const badgeVariants = ['standard', 'mini', 'icon'] as const;
export const badgeStyles = ['flat', 'flat-square', 'plastic', 'for-the-badge'] as const;
export const badgeSizes = ['small', 'medium', 'large'] as const;
export const badgeIconSizes = [16, 24, 32] as const;
export const badgeOrientations = ['horizontal', 'vertical'] as const;
export const badgeThemes = ['light', 'dark'] as const;
/** Languages the badge speaks; any other tag falls back to English (an embed must not break). */
export const badgeLanguages = ['en', 'de', 'fr', 'es'] as const;

export const BadgeVariant = z.enum(badgeVariants);
export type BadgeVariant = z.infer<typeof BadgeVariant>;
export const BadgeStyle = z.enum(badgeStyles);
export const BadgeSize = z.enum(badgeSizes);
export const BadgeIconSize = z.union([z.literal(16), z.literal(24), z.literal(32)]);
export type BadgeIconSize = z.infer<typeof BadgeIconSize>;
export const BadgeOrientation = z.enum(badgeOrientations);
export const BadgeTheme = z.enum(badgeThemes);
export type BadgeLanguage = (typeof badgeLanguages)[number];

/** What an owner saves in the configurator (stored in domains.badge_settings). */
export const BadgeSettings = z.object({
  variant: BadgeVariant,
  style: BadgeStyle,
  size: BadgeSize,
  iconSize: BadgeIconSize,
  orientation: BadgeOrientation,
  theme: BadgeTheme,
  showPercentage: z.boolean(),
  showDate: z.boolean(),
});
export type BadgeSettings = z.infer<typeof BadgeSettings>;

export const defaultBadgeSettings: BadgeSettings = {
  variant: 'standard',
  style: 'flat',
  size: 'medium',
  iconSize: 24,
  orientation: 'horizontal',
  theme: 'light',
  showPercentage: true,
  showDate: true,
};

/** Everything a badge is drawn with: the settings and the language. */
export type BadgeOptions = BadgeSettings & { lang: BadgeLanguage };

const flag = (name: string) =>
  z
    .enum(['true', 'false', '1', '0'], { message: `${name} must be true or false` })
    .transform((value) => value === 'true' || value === '1');

const oneOf = <T extends readonly [string, ...string[]]>(name: string, values: T) =>
  z.enum(values, { message: `${name} must be one of ${values.join(', ')}` });

/**
 * `GET /api/badge/{domain}` and `/badge/{domain}` query. Every option is optional: what is left
 * out comes from the owner's saved settings, then the defaults. Unknown parameters (cache
 * busters) are ignored; a bad value of a known one is a 400.
 */
export const BadgeQuery = z.object({
  variant: oneOf('variant', badgeVariants).optional(),
  style: oneOf('style', badgeStyles).optional(),
  size: oneOf('size', badgeSizes).optional(),
  iconSize: z
    .enum(['16', '24', '32'], { message: 'iconSize must be 16, 24 or 32' })
    .transform((value) => Number(value) as BadgeIconSize)
    .optional(),
  orientation: oneOf('orientation', badgeOrientations).optional(),
  theme: oneOf('theme', badgeThemes).optional(),
  lang: z
    .string()
    .regex(/^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{1,8}){0,4}$/, 'lang must be a language tag such as en')
    .optional(),
  showPercentage: flag('showPercentage').optional(),
  showDate: flag('showDate').optional(),
});
export type BadgeQuery = z.infer<typeof BadgeQuery>;

/** One of the account's domains as the configurator shows it. */
export const DomainBadge = z.object({
  domain: z.string(),
  status: DomainStatus,
  /** Monitored and verified: the badge answers (otherwise it is a 404). */
  live: z.boolean(),
  badgeActive: z.boolean(),
  settings: BadgeSettings,
});
export type DomainBadge = z.infer<typeof DomainBadge>;

/** `GET /api/badges`: the account's domains with their badge settings. */
export const DomainBadgeList = z.array(DomainBadge);

/** `PUT /api/domains/{domain}/badge`: save the settings; the badge counts as installed. */
export const SaveBadgeBody = z.strictObject({ settings: z.strictObject(BadgeSettings.shape) });
export type SaveBadgeBody = z.infer<typeof SaveBadgeBody>;
