import { findCatalogueAddOn } from '#contract/index.js';
import type { AppDb } from '#db/client.js';
import { countOwnerPages } from '#db/stores/scans.js';
import { ConflictError, InvalidError } from '../http-errors.js';

/**
 * What an add-on names is what it delivers (ADR 0035). Checked before a payment is asked for
 * (`POST /api/create-payment-intent`) and again before one is spent (`POST /api/add-ons/purchase`):
 * - an AI product is on sale only when this server has an AI endpoint configured;
 * - the pages bought are pages already scanned: buying more than the domain's scanned pages is
 *   refused (409) before any money moves, never charged for and delivered short.
 */

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

export function assertOnSale(addOnId: string, aiConfigured: boolean): void {
  const addOn = findCatalogueAddOn(addOnId);
  if (!addOn) throw new InvalidError('Unknown add-on ID');
  if (addOn.requiresAi && !aiConfigured) {
    throw new InvalidError(
      `${addOn.name} is not on sale: this service has no AI assistant configured to write the summary.`,
    );
  }
}

/** Throws the 409 when the owner has scanned fewer distinct pages of `domain` than `pages`. */
export async function assertPagesScanned(
  db: AppDb,
  ownerId: string,
  domain: string,
  pages: number,
): Promise<number> {
  const available = await countOwnerPages(db, domain, ownerId);
  if (available === 0) {
    throw new ConflictError(
      `${domain} has no completed scan yet; add-ons are made from its latest scans, so scan it first.`,
    );
  }
  if (available < pages) {
    throw new ConflictError(
      `Only ${plural(available, 'page')} of ${domain} ${available === 1 ? 'has' : 'have'} been scanned, so an add-on for ${plural(pages, 'page')} cannot be delivered: scan more pages first or buy it for ${plural(available, 'page')}. Nothing was charged.`,
    );
  }
  return available;
}
