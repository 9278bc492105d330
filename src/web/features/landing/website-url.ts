/** Spec §5: http(s), optional www, a domain whose top-level part has 2+ letters, optional path. */
const websiteUrlPattern =
  /^https?:\/\/(www\.)?[-a-zA-Z0-9@:%._+~#=]{1,256}\.[a-zA-Z]{2,}\b([-a-zA-Z0-9@:%_+.~#?&/=]*)$/;

/** Spec §4: typed text without a scheme, with a dot and no space, gets https:// in front. */
export function withScheme(text: string): string {
  const trimmed = text.trim();
  if (/^https?:\/\//i.test(trimmed)) return trimmed;
  if (trimmed.includes('.') && !/\s/.test(trimmed)) return `https://${trimmed}`;
  return trimmed;
}

export function isWebsiteUrl(text: string): boolean {
  if (!websiteUrlPattern.test(text)) return false;
  try {
    new URL(text);
    return true;
  } catch {
    return false;
  }
}

/** The sample addresses the hero field's placeholder types out (spec §2: 10 samples). */
export const sampleWebsites = [
  'https://yourcompany.com',
  'https://shop.example.com',
  'https://www.citylibrary.org',
  'https://portal.university.edu',
  'https://bakery-online.co.uk',
  'https://dentalcare.health',
  'https://lawfirm-partners.com',
  'https://news.localtimes.net',
  'https://app.startup.io',
  'https://museum-of-art.org',
] as const;
