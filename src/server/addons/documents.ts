import type { AddOn } from '#contract/index.js';
import { renderSiteReportHtml } from '#reports/html-report.js';
import { toJson } from '#reports/json.js';
import type { ReportModel } from '#reports/model.js';
import { renderVpatDocx } from '#reports/vpat/docx.js';
import { pagesToOpenAcr } from '#reports/vpat/from-scan.js';
import { checkOpenAcr } from '#reports/vpat/openacr.js';
import type { PagePool } from '#scanner';
import { printPdf } from '../documents/pdf.js';
import { safeFileName, type FileAnswer } from '../documents/service.js';
import { UnavailableError } from '../http-errors.js';

/**
 * The document each add-on sells, made by the renderers every scan's documents use, from the
 * models of the pages it covers (latest scanned first):
 * - JSON with 3 engines: the export's JSON of each page with each engine's raw output;
 * - OpenACR JSON: the ACR of the pages, checked against the OpenACR schema and catalog;
 * - PDF report: the HTML report of the pages (with each page's AI summary), printed by Chromium;
 * - VPAT automated: the VPAT 2.4 Word document of the pages;
 * - Pro VPAT manual: the same, with every criterion an automated scan cannot decide marked
 *   "Manual review required." for the person who completes it;
 * - white-label variants: the same files without the Conformly name anywhere in them.
 */

const docxType = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

/** The catalogue entries whose VPAT marks the criteria that need a person. */
const manualReviewAddOns = new Set(['pro-vpat-manual', 'white-label-pro-vpat']);

/** Whether the document needs each engine's raw output (most of a stored scan's size). */
export const needsRawOutput = (addOn: AddOn) => addOn.type === 'json';

export async function addOnDocument(
  addOn: AddOn,
  models: readonly ReportModel[],
  pool: PagePool | undefined,
  /**
   * The pages' issues the site's team marked false positive, with their notes (ADR 0033): in an
   * ACR they decide no level and are named in their criterion's remark, as in a scan's VPAT.
   */
  falsePositives: ReadonlyMap<string, string | null> = new Map(),
): Promise<FileAnswer> {
  const first = models[0];
  if (!first) throw new RangeError('an add-on document needs at least one scanned page');
  const latest = models.reduce((a, b) => (b.scannedAt > a.scannedAt ? b : a));
  const manualReview = manualReviewAddOns.has(addOn.id);
  // White-label names say nothing of the label either: an agency hands the file on as it is.
  const name = (kind: string) =>
    `${safeFileName(first.domain)}-${kind}-${latest.scannedAt.toISOString().slice(0, 10)}`;
  switch (addOn.type) {
    case 'json':
      return {
        body: toJson(models, { includeRaw: true }),
        contentType: 'application/json; charset=utf-8',
        fileName: `${name('accessibility-3-engines')}.json`,
      };
    case 'openacr': {
      // Checked as an upload would be: a report that fails the schema is never delivered.
      const checked = checkOpenAcr(pagesToOpenAcr(models, { falsePositives }).report);
      return {
        body: JSON.stringify(checked.report, null, 2) + '\n',
        contentType: 'application/json; charset=utf-8',
        fileName: `${name('openacr')}.json`,
      };
    }
    case 'pdf': {
      if (!pool) throw new UnavailableError('PDF printing is not available on this server.');
      const html = renderSiteReportHtml(models, { whiteLabel: addOn.whiteLabel });
      return {
        body: await printPdf(pool, html),
        contentType: 'application/pdf',
        fileName: `${name('accessibility-report')}.pdf`,
      };
    }
    case 'vpat': {
      const acr = pagesToOpenAcr(models, { manualReview, falsePositives });
      return {
        body: await renderVpatDocx(acr, { whiteLabel: addOn.whiteLabel }),
        contentType: docxType,
        fileName: `${name(manualReview ? 'pro-vpat' : 'vpat')}.docx`,
      };
    }
  }
}
