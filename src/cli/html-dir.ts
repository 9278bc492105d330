import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { PageScanResult } from '#contract/index.js';
import { renderHtmlReport, renderReportIndexHtml } from '#reports/html-report.js';
import { reportModelOf } from '#reports/model.js';
import type { PageFailure } from '#reports/scan-issues.js';

/** `page-2-example-com-contact.html`: numbered in scan order, readable, safe on any file system. */
export function reportFileName(index: number, url: string): string {
  let slug: string;
  try {
    const parsed = new URL(url);
    slug = `${parsed.hostname}${parsed.pathname}${parsed.search}`;
  } catch {
    slug = url;
  }
  slug = slug
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  return `page-${index + 1}${slug ? `-${slug}` : ''}.html`;
}

/**
 * The service's HTML report, one file per page, and an index.html linking them, in `dir`.
 * Returns the files written, index first.
 */
export async function writeHtmlReports(
  dir: string,
  results: readonly PageScanResult[],
  failures: readonly PageFailure[],
): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  const entries = results.map((result, index) => ({
    model: reportModelOf(result),
    href: reportFileName(index, result.url),
  }));
  const files: string[] = [];
  for (const entry of entries) {
    const file = join(dir, entry.href);
    await writeFile(file, renderHtmlReport(entry.model));
    files.push(file);
  }
  const index = join(dir, 'index.html');
  await writeFile(index, renderReportIndexHtml(entries, failures));
  return [index, ...files];
}
