/**
 * The host name in what a person typed as a domain ("https://www.Example.com/about" is
 * "www.example.com"; the server folds "www." itself); undefined when it is not one.
 */
export function hostOf(input: string): string | undefined {
  const text = input.trim();
  if (text === '' || /\s/.test(text)) return undefined;
  try {
    const url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `https://${text}`);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
    return url.hostname.includes('.') || url.hostname === 'localhost' ? url.hostname : undefined;
  } catch {
    return undefined;
  }
}
