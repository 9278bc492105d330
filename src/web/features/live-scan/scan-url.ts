/**
 * The address a live scan starts with (spec §5): blank text starts nothing, and text without an
 * http:// or https:// prefix gets https:// in front. The spec's pages disagreed (some sent the text
 * as typed); all five themes behave the same here. Text naming another scheme (ftp://) is sent as
 * typed, so the server's message about it is shown instead of a scan of 'https://ftp://...'.
 */
export function normalizeScanUrl(text: string): string | undefined {
  const trimmed = text.trim();
  if (!trimmed) return undefined;
  return /^[a-z][a-z\d+.-]*:\/\//i.test(trimmed) ? trimmed : `https://${trimmed}`;
}
