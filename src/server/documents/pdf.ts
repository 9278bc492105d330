import type { PagePool } from '#scanner';

/**
 * Prints self-contained HTML to PDF on one of the server's browser tabs. Chromium writes a
 * tagged PDF (headings, lists, tables and reading order carried over), which screen readers need;
 * the flag is set explicitly so a change of puppeteer's default cannot drop it. The HTML loads
 * nothing from the network, so 'load' is reached at once.
 */
export async function printPdf(pool: PagePool, html: string): Promise<Buffer> {
  return pool.withPage(async (page) => {
    await page.setJavaScriptEnabled(false);
    try {
      await page.setContent(html, { waitUntil: 'load', timeout: 15_000 });
      const pdf = await page.pdf({
        format: 'A4',
        printBackground: true,
        tagged: true,
        preferCSSPageSize: true,
      });
      return Buffer.from(pdf);
    } finally {
      await page.setJavaScriptEnabled(true);
    }
  });
}
