/**
 * Where to go after logging in or signing up, from a `next` query parameter. Only a path of this
 * site is followed: anything that could lead elsewhere ("//evil.test", "https://...",
 * "/\\evil.test", "javascript:...") is ignored, so a crafted link cannot send a person who just
 * signed in to another site.
 */
export function safeNextPath(value: string | null | undefined): string | undefined {
  if (!value || value.length > 2048) return undefined;
  // Browsers read a backslash as a slash and drop tabs and newlines inside URLs.
  if (!value.startsWith('/') || value.startsWith('//')) return undefined;
  if (value.includes('\\') || hasControlCharacter(value)) return undefined;
  const base = 'https://same-origin.invalid';
  let url: URL;
  try {
    url = new URL(value, base);
  } catch {
    return undefined;
  }
  if (url.origin !== base) return undefined;
  return `${url.pathname}${url.search}${url.hash}`;
}

function hasControlCharacter(value: string): boolean {
  for (const char of value) {
    const code = char.charCodeAt(0);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}
