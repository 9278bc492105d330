import { rawByEngine, type EngineId } from '#contract/index.js';
import type { AppDb } from '#db/client.js';
import { toCsv } from '#reports/csv.js';
import { renderHtmlReport } from '#reports/html-report.js';
import { toJson } from '#reports/json.js';
import { toJunit } from '#reports/junit.js';
import { toMarkdown } from '#reports/markdown.js';
import { toSarif } from '#reports/sarif.js';
import { renderStatementHtml } from '#reports/statement.js';
import { findPublished } from '#db/stores/domains.js';
import { readSiteStanding } from '#db/stores/site-standing.js';
import { falsePositivesOfScan, triageStatesOfScan } from '#db/stores/triage.js';
import { renderVpatDocx } from '#reports/vpat/docx.js';
import { fillInPrompt, scanToOpenAcr } from '#reports/vpat/from-scan.js';
import { checkOpenAcr, parseOpenAcr, type CheckedOpenAcr } from '#reports/vpat/openacr.js';
import type { PagePool } from '#scanner';
import { NotFoundError, UnavailableError } from '../http-errors.js';
import { loadReportModel } from '../scans/service.js';
import { printPdf } from './pdf.js';

/** The documents of a scan and the OpenACR tools: rules here, HTTP in routes.ts. */
export interface DocumentServiceDeps {
  db: AppDb;
  /** Tabs to print PDFs with; a server without a browser answers 503 for PDFs. */
  pool?: PagePool;
}

export interface FileAnswer {
  body: Buffer | string;
  contentType: string;
  fileName: string;
}

const docxType = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

/** A file name from text a user or a site chose: letters, digits, dots and dashes only. */
export function safeFileName(text: string): string {
  return (
    text
      .replace(/[^A-Za-z0-9.-]+/g, '-')
      .replace(/^[-.]+|-+$/g, '')
      .slice(0, 80) || 'report'
  );
}

export async function htmlReport(deps: DocumentServiceDeps, scanId: string): Promise<string> {
  return renderHtmlReport(await loadReportModel(deps.db, scanId));
}

export const exportFormats = ['csv', 'json', 'md', 'sarif', 'junit'] as const;
export type ExportFormat = (typeof exportFormats)[number];

/**
 * The scan's issues in the CLI's formats, by the CLI's renderers on the same model; every kind
 * of issue, so needs-review items are kept.
 */
export async function exportReport(
  deps: DocumentServiceDeps,
  scanId: string,
  format: ExportFormat,
): Promise<FileAnswer> {
  const model = await loadReportModel(deps.db, scanId);
  const kinds = ['violation', 'needs-review', 'best-practice'] as const;
  const base = `${safeFileName(model.domain)}-accessibility-${model.scannedAt.toISOString().slice(0, 10)}`;
  switch (format) {
    case 'csv':
      return {
        // Every issue with its triage state: false positives stay, marked (ADR 0033).
        body: toCsv([model], { kinds, triage: await triageStatesOfScan(deps.db, scanId) }),
        contentType: 'text/csv; charset=utf-8',
        fileName: `${base}.csv`,
      };
    case 'json':
      return {
        body: toJson([model]),
        contentType: 'application/json; charset=utf-8',
        fileName: `${base}.json`,
      };
    case 'md':
      return {
        body: toMarkdown([model], { kinds }),
        contentType: 'text/markdown; charset=utf-8',
        fileName: `${base}.md`,
      };
    case 'sarif':
      return {
        body: toSarif([model], { kinds }),
        contentType: 'application/sarif+json; charset=utf-8',
        fileName: `${base}.sarif`,
      };
    case 'junit':
      return {
        body: toJunit([model], { kinds }),
        contentType: 'application/xml; charset=utf-8',
        fileName: `${base}.xml`,
      };
  }
}

/** One engine's own output for the scan, as it produced it. */
export async function rawEngineOutput(
  deps: DocumentServiceDeps,
  scanId: string,
  engine: EngineId,
): Promise<FileAnswer> {
  const model = await loadReportModel(deps.db, scanId, { raw: true });
  if (!model.raw) throw new NotFoundError('This scan has no raw engine output.');
  const raw = rawByEngine(model.raw)[engine];
  if (!raw) throw new NotFoundError(`This scan has no ${engine} output.`);
  return {
    body: JSON.stringify(raw, null, 2) + '\n',
    contentType: 'application/json; charset=utf-8',
    fileName: `${safeFileName(model.domain)}-${engine}.json`,
  };
}

export async function statementPdf(
  deps: DocumentServiceDeps,
  scanId: string,
  siteOrigin: string,
): Promise<FileAnswer> {
  const model = await loadReportModel(deps.db, scanId);
  if (!deps.pool) throw new UnavailableError('PDF printing is not available on this server.');
  // Only a domain with live public pages (monitored, ownership proved) has a status page to name.
  // Its standing is public there too (docs/scoring.md): the statement names the site's figures
  // beside this page's only from a site audit.
  const published = await findPublished(deps.db, model.domain);
  const standing = published
    ? await readSiteStanding(deps.db, published.userId, model.domain)
    : null;
  const html = renderStatementHtml(model, {
    statusPageUrl: published ? `${siteOrigin}/status/${encodeURIComponent(model.domain)}` : null,
    standing,
  });
  return {
    body: await printPdf(deps.pool, html),
    contentType: 'application/pdf',
    fileName: `${safeFileName(model.domain)}-statement.pdf`,
  };
}

export async function vpatFromScan(
  deps: DocumentServiceDeps,
  scanId: string,
  options: { template: boolean },
): Promise<FileAnswer> {
  const model = await loadReportModel(deps.db, scanId);
  // False positives decide no level; each criterion's remark names its own (ADR 0033).
  const falsePositives = await falsePositivesOfScan(deps.db, scanId);
  const body = await renderVpatDocx(scanToOpenAcr(model, { ...options, falsePositives }), {
    missingField: options.template
      ? (label) => `[Enter the ${label.toLowerCase()}]`
      : () => 'Not provided',
  });
  const date = model.scannedAt.toISOString().slice(0, 10);
  return {
    body,
    contentType: docxType,
    fileName: options.template
      ? `${safeFileName(model.domain)}-vpat-template-filled.docx`
      : `${safeFileName(model.domain)}-vpat-${date}.docx`,
  };
}

export { fillInPrompt };

/** Reads and checks an uploaded OpenACR report; throws OpenAcrError naming what is wrong. */
export function checkUpload(bytes: Buffer, fileName: string): CheckedOpenAcr {
  return checkOpenAcr(parseOpenAcr(bytes.toString('utf8'), fileName));
}

export async function vpatFromOpenAcr(bytes: Buffer, fileName: string): Promise<FileAnswer> {
  const checked = checkUpload(bytes, fileName);
  return {
    body: await renderVpatDocx(checked),
    contentType: docxType,
    fileName: `${safeFileName(checked.report.product.name)}-vpat-report.docx`,
  };
}
