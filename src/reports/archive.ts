import { strToU8, zipSync, type Zippable } from 'fflate';
import type { AuditPageResult, AuditSummaryTable, DetailedAnalysis } from '#contract/index.js';

/**
 * The raw data archive of a multi-page audit (spec: "a raw data archive (domain, size in KB, ZIP
 * download link)"): each page's raw engine output as JSON, in a folder per page, and the audit's
 * CSV, HTML and Markdown reports at the top.
 */

export interface AuditArchiveInput {
  domain: string;
  /** When the audit finished; stamped on every entry so the same audit gives the same bytes. */
  createdAt: Date;
  pages: readonly AuditPageResult[];
  summaryTable: AuditSummaryTable;
  analysis: DetailedAnalysis;
}

export function archiveFileName(domain: string, createdAt: Date): string {
  return `${safeName(domain)}-audit-${createdAt.toISOString().slice(0, 10)}.zip`;
}

/** A folder name from the page's position and address, safe on every file system. */
export function pageFolder(page: AuditPageResult, index: number): string {
  let name = page.url;
  try {
    const url = new URL(page.url);
    name = `${url.hostname}${url.pathname === '/' ? '' : url.pathname}`;
  } catch {
    // An address that does not parse still gets a folder named from its text.
  }
  return `pages/${String(index + 1).padStart(2, '0')}-${safeName(name).slice(0, 80)}`;
}

function safeName(text: string): string {
  return (
    text
      .replace(/[^A-Za-z0-9.-]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .replace(/^\.+/, '') || 'page'
  );
}

const json = (value: unknown) => strToU8(JSON.stringify(value, null, 2) + '\n');

export function buildAuditArchive(input: AuditArchiveInput): Buffer {
  const mtime = input.createdAt;
  const files: Zippable = {
    'audit-summary.csv': strToU8(input.summaryTable.formats.csv),
    'audit-summary.html': strToU8(input.summaryTable.formats.html),
    'detailed-analysis.md': strToU8(input.analysis.formats.markdown),
    'detailed-analysis.html': strToU8(input.analysis.formats.html),
  };
  input.pages.forEach((page, index) => {
    const folder = pageFolder(page, index);
    files[`${folder}/page.json`] = json({
      url: page.url,
      status: page.status,
      error: page.error,
      title: page.title,
      score: page.score,
      meta: page.meta,
      engineErrors: page.engineErrors,
    });
    if (page.pa11yRaw) files[`${folder}/pa11y.json`] = json(page.pa11yRaw);
    if (page.axeRaw) files[`${folder}/axe.json`] = json(page.axeRaw);
    if (page.ibmRaw) files[`${folder}/ibm.json`] = json(page.ibmRaw);
  });
  return Buffer.from(zipSync(files, { level: 6, mtime }));
}
