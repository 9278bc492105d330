import type { AddOn } from '#contract/index.js';
import { listLatestOwnerPages } from '#db/stores/scans.js';
import { falsePositivesOfScan } from '#db/stores/triage.js';
import type { ReportModel } from '#reports/model.js';
import type { AuditActor } from '../audit-log/service.js';
import { HttpError } from '../http-errors.js';
import { loadReportModel } from '../scans/service.js';
import { addOnDocument, needsRawOutput } from './documents.js';
import { refundAddOn, type AddOnRefundDeps } from './refunds.js';
import * as repo from './repo.js';

/**
 * What "delivered" means for an add-on (ADR 0042): its document is made from the owner's latest
 * scans of up to `quantity` distinct pages completed before the purchase, each time it is
 * downloaded. Right after the payment is taken the document is made once (as a download would
 * make it), and the pages it covers are recorded in `pages_delivered`. A document that covers
 * fewer pages than were bought, or cannot be made at all, is a delivery that failed: the charge
 * is refunded at once (refunds.ts) and the add-on says so. The purchase checked the pages before
 * the payment (deliverable.ts); this catches what changed in between (a scan deleted meanwhile)
 * and a document that fails to build.
 *
 * A PDF is printed by the server's browser when downloaded: a busy or absent browser is a 503
 * worth retrying, not a failed delivery, so its check makes the pages' models but prints nothing.
 */

export interface CoveredPages {
  models: ReportModel[];
  falsePositives: Map<string, string | null>;
}

/** The models of the pages the add-on covers, latest scanned first (at most `quantity`). */
export async function loadCoveredPages(
  deps: Pick<AddOnRefundDeps, 'db'>,
  row: repo.AddOnRecord,
  addOn: AddOn,
): Promise<CoveredPages> {
  const pages = await listLatestOwnerPages(deps.db, row.domain, row.userId, {
    limit: row.quantity,
    before: row.createdAt,
  });
  const [models, judged] = await Promise.all([
    Promise.all(
      pages.map((page) => loadReportModel(deps.db, page.id, { raw: needsRawOutput(addOn) })),
    ),
    Promise.all(pages.map((page) => falsePositivesOfScan(deps.db, page.id))),
  ]);
  return { models, falsePositives: new Map(judged.flatMap((scan) => [...scan])) };
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

export type DeliveryOutcome =
  { delivered: true; pages: number } | { delivered: false; pages: number; reason: string };

/** Makes the add-on's document once; refunds the charge when it falls short or fails. */
export async function checkDelivery(
  deps: AddOnRefundDeps,
  row: repo.AddOnRecord,
  addOn: AddOn,
  actor: AuditActor,
): Promise<DeliveryOutcome> {
  let pages: number;
  let failure: string | undefined;
  try {
    const covered = await loadCoveredPages(deps, row, addOn);
    pages = covered.models.length;
    if (pages > 0 && addOn.type !== 'pdf') {
      await addOnDocument(addOn, covered.models, undefined, covered.falsePositives);
    }
  } catch (error) {
    // Our own refusals (a 4xx/5xx we chose) and failures of the renderers alike: nothing usable.
    failure =
      error instanceof HttpError
        ? error.message.replace(/\.$/, '')
        : 'the document could not be made from the scans of its pages';
    pages = 0;
  }
  await repo.setPagesDelivered(deps.db, row.id, pages);
  if (failure === undefined && pages >= row.quantity) return { delivered: true, pages };
  const reason =
    failure !== undefined
      ? `Delivery failed: ${failure}.`
      : `Delivery fell short: ${plural(pages, 'page')} of the ${row.quantity} bought could be covered.`;
  await refundAddOn(deps, row, { reason, actor });
  return { delivered: false, pages, reason };
}
