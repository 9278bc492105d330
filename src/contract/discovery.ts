import { z } from 'zod';

/** Where on the homepage a link sits, from landmarks, roles and common class names. */
export const LinkLocation = z.enum(['nav', 'header', 'primary', 'footer', 'other']);
export type LinkLocation = z.infer<typeof LinkLocation>;

export const DiscoveredPage = z.object({
  url: z.string(),
  /** The page's own title; known for the homepage, which is rendered. */
  title: z.string().optional(),
  /** What to show for the page: link text, else title, else the path (the spec's `text`). */
  text: z.string(),
  linkText: z.string(),
  /** The most prominent place the page is linked from. */
  location: LinkLocation,
  /** Every place it is linked from. */
  locations: z.array(LinkLocation),
  score: z.number().int(),
  reasons: z.array(z.string()),
  source: z.enum(['page', 'sitemap']),
  isLoginPage: z.boolean().optional(),
});
export type DiscoveredPage = z.infer<typeof DiscoveredPage>;

export const RobotsInfo = z.object({
  url: z.string(),
  /** found: rules applied; missing: 4xx, everything allowed; unavailable: 5xx or unreachable,
   * nothing but the homepage is taken (RFC 9309 §2.3.1.4); refused: the address rules refused it. */
  status: z.enum(['found', 'missing', 'unavailable', 'refused']),
  userAgent: z.string(),
  /** Same-site URLs left out because robots.txt disallows them for our user agent. */
  disallowed: z.array(z.string()),
  sitemaps: z.array(z.string()),
});
export type RobotsInfo = z.infer<typeof RobotsInfo>;

export const SitemapRead = z.object({
  url: z.string(),
  kind: z.enum(['index', 'urlset']).optional(),
  /** Page URLs (urlset) or child sitemaps (index) listed. */
  entries: z.number().int(),
  error: z.string().optional(),
});
export type SitemapRead = z.infer<typeof SitemapRead>;

export const DiscoveryResult = z.object({
  homeUrl: z.string(),
  /** Homepage first, then by score; at most `maxPages`. */
  discovered: z.array(DiscoveredPage),
  /** Every link on the rendered homepage, before filtering. */
  totalLinksFound: z.number().int(),
  /** Distinct same-site pages found on the page and in sitemaps, before the cap. */
  candidatesFound: z.number().int(),
  /** Milliseconds. */
  processingTime: z.number().int(),
  robots: RobotsInfo,
  sitemaps: z.array(SitemapRead),
});
export type DiscoveryResult = z.infer<typeof DiscoveryResult>;
