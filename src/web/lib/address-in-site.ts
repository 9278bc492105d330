/** A page of a domain's site by its path and query (the domain is the screen's subject). */
export function addressInSite(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.pathname}${parsed.search}`;
  } catch {
    return url;
  }
}
