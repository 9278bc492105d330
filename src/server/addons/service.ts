import {
  addOnCatalogue,
  AddOnPriceError,
  findCatalogueAddOn,
  addOnPrice,
  type AddOn,
  type AddOnCatalogueResponse,
  type AddOnPagesResponse,
  type AddOnPurchaseRequest,
  type AddOnPurchaseResponse,
  type AddOnRefundRequest,
  type PurchasedAddOn,
} from '#contract/index.js';
import type { AppDb } from '#db/client.js';
import { findPayment } from '#db/stores/payments.js';
import { countOwnerPages, listLatestOwnerPages } from '#db/stores/scans.js';
import type { PagePool } from '#scanner';
import { takePayment } from '../billing/payment-intents.js';
import type { PaymentProvider } from '../billing/payments.js';
import type { FileAnswer } from '../documents/service.js';
import * as domains from '../domains/service.js';
import { recordAudit, type AuditActor } from '../audit-log/service.js';
import {
  ConflictError,
  HttpError,
  InvalidError,
  NotFoundError,
  UnauthorizedError,
} from '../http-errors.js';
import type { Caller } from '../plugins/caller.js';
import { assertOnSale, assertPagesScanned } from './deliverable.js';
import { checkDelivery, loadCoveredPages } from './delivery.js';
import { addOnDocument } from './documents.js';
import { refundableUntil, requestRefund } from './refunds.js';
import * as repo from './repo.js';

/**
 * One-time paid reports of a monitored domain (spec dashboard-area §2 "Add-ons panel", §4
 * "add-on purchase happen only after payment succeeds", §9 catalogue and price). The price is
 * the catalogue's, computed here; the payment the browser made is taken only if the provider
 * says it succeeded for exactly that amount, for this account, domain and purpose; one payment
 * buys one add-on, so a replayed purchase answers with the add-on it already bought.
 *
 * What an add-on covers: the owner's latest completed scans of up to `pages` distinct pages of
 * the domain at the moment of purchase. The document is made when downloaded, from those same
 * scans (those completed by the purchase), so it reads the same every time.
 */

export interface AddOnServiceDeps {
  db: AppDb;
  payments: PaymentProvider;
  /** Tabs to print PDFs with; a server without a browser answers 503 for PDF downloads. */
  pool?: PagePool;
  /** Whether an AI endpoint is configured: AI products are on sale only then (ADR 0035). */
  aiConfigured?: boolean;
}

type AddOnCaller = Pick<Caller, 'organisationId'>;

export const loginRequired = () => new UnauthorizedError('Log in to buy add-ons');
const addOnNotFound = () => new NotFoundError('Add-on not found');
const domainNotYours = (domain: string) =>
  new NotFoundError(`${domain} is not one of your monitored domains.`);

/** Pages listed by the pages call; the count is of all of them. */
const listedPages = 50;

function signedIn(caller: AddOnCaller): string {
  if (!caller.organisationId) throw loginRequired();
  return caller.organisationId;
}

/** The add-ons on sale on this server: AI products only when an AI endpoint is configured. */
export function catalogue(deps: Pick<AddOnServiceDeps, 'aiConfigured'>): AddOnCatalogueResponse {
  return addOnCatalogue
    .filter((entry) => deps.aiConfigured === true || !findCatalogueAddOn(entry.id)?.requiresAi)
    .map((entry) => ({ ...entry }));
}

function catalogueEntry(id: string): AddOn | undefined {
  return addOnCatalogue.find((entry) => entry.id === id);
}

/** The caller's own monitored domain (trial, active or grace period), else the 404. */
async function ownMonitoredDomain(db: AppDb, userId: string, input: string): Promise<string> {
  const domain = domains.normalizeDomain(input);
  if (!(await domains.findOwnMonitored(db, userId, domain))) throw domainNotYours(domain);
  return domain;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** What the add-on row says it covers, and the purchase answer repeats. */
export function coverageText(addOn: AddOn, domain: string, pages: number, available: number) {
  const covered = Math.min(pages, available);
  const of =
    covered < pages
      ? `${plural(covered, 'page')} of the ${pages} paid for: only ${plural(available, 'scanned page')} of ${domain} ${available === 1 ? 'was' : 'were'} available`
      : `${plural(covered, 'page')} (${plural(available, 'scanned page')} of ${domain} available)`;
  return `${addOn.name} for ${domain}, made from the latest scans of ${of}.`;
}

function toPurchased(row: repo.AddOnRecord, now = new Date()): PurchasedAddOn {
  const until = refundableUntil(row, now);
  return {
    id: row.id,
    addOnId: row.type,
    name: catalogueEntry(row.type)?.name ?? row.type,
    domain: row.domain,
    pages: row.quantity,
    price: row.price / 100,
    createdAt: row.createdAt.toISOString(),
    description: row.description ?? '',
    downloadUrl: `/api/add-ons/${row.id}/download`,
    pagesDelivered: row.pagesDelivered,
    refund: row.refundedAt
      ? {
          refundedAt: row.refundedAt.toISOString(),
          amount: row.price / 100,
          reason: row.refundReason ?? '',
        }
      : null,
    refundableUntil: until ? until.toISOString() : null,
  };
}

/** The spec's price errors ('Unknown add-on ID', 'Pages must be at least 1') as 400s. */
function priceOf(addOnId: string, pages: number): { addOn: AddOn; price: number } {
  try {
    const price = addOnPrice(addOnId, pages);
    return { addOn: catalogueEntry(addOnId)!, price };
  } catch (error) {
    if (error instanceof AddOnPriceError) throw new InvalidError(error.message);
    throw error;
  }
}

/**
 * `POST /api/add-ons/purchase`, after the browser's payment succeeded. Checks, in order, the
 * add-on and pages (400), that the domain is one the caller monitors (404) and has a completed
 * scan to make the document from (409); then, in one transaction, takes the payment (the billing
 * area checks it with the provider) and stores the add-on. Nothing is stored when any step fails.
 */
export async function purchase(
  deps: AddOnServiceDeps,
  caller: AddOnCaller & AuditActor,
  body: AddOnPurchaseRequest,
): Promise<AddOnPurchaseResponse> {
  const userId = signedIn(caller);
  const { addOn, price } = priceOf(body.addOnId, body.pages);
  const paymentId = body.paymentIntentId;
  const replayed = await repo.findByPayment(deps.db, paymentId);
  if (replayed?.userId === userId) return already(replayed);
  assertOnSale(addOn.id, deps.aiConfigured === true);
  const domain = await ownMonitoredDomain(deps.db, userId, body.domain);
  const available = await assertPagesScanned(deps.db, userId, domain, body.pages);
  const [latest] = await listLatestOwnerPages(deps.db, domain, userId, { limit: 1 });
  if (!latest) throw new ConflictError(`${domain} has no completed scan yet; scan it first.`);
  await assertPaidFor(deps.db, paymentId, userId, body.addOnId, body.pages);
  const description = coverageText(addOn, domain, body.pages, available);
  let row: repo.AddOnRecord;
  try {
    row = await deps.db.transaction(async (tx) => {
      await takePayment(tx, deps.payments, {
        userId,
        paymentId,
        purpose: 'add_on',
        domain,
        amountCents: Math.round(price * 100),
        actor: caller,
      });
      const added = await repo.insertAddOn(tx, {
        userId,
        type: addOn.id,
        domain,
        price: Math.round(price * 100),
        quantity: body.pages,
        description,
        stripePaymentId: paymentId,
        scanId: latest.id,
      });
      await recordAudit(
        tx,
        caller,
        'addon.purchased',
        { type: 'add_on', id: added.id },
        {
          addOnId: addOn.id,
          domain,
          pages: body.pages,
          priceCents: Math.round(price * 100),
        },
      );
      return added;
    });
  } catch (error) {
    // A twin of this request (a double submit) took the payment first: answer with its add-on.
    const twin = await repo.findByPayment(deps.db, paymentId);
    if (twin?.userId === userId) return already(twin);
    if (twin) throw new ConflictError('This payment has already been used.');
    throw error;
  }
  // The document is made once now: one that falls short or fails is refunded at once (ADR 0042).
  const delivery = await checkDeliveryOrKeep(deps, row, addOn, caller);
  const stored = (await repo.findOwnAddOn(deps.db, userId, row.id)) ?? row;
  return {
    message: delivery.delivered
      ? `${addOn.name} purchased. ${description}`
      : `${addOn.name} could not be delivered in full, so its charge was refunded. ${delivery.reason}`,
    addOn: toPurchased(stored),
  };
}

/**
 * The purchase stands once its payment is taken; a refund the provider refuses now leaves the
 * add-on unrefunded with its short page count, and its owner can ask for the refund (ADR 0042).
 */
async function checkDeliveryOrKeep(
  deps: AddOnServiceDeps,
  row: repo.AddOnRecord,
  addOn: AddOn,
  caller: AddOnCaller & AuditActor,
) {
  const actor: AuditActor = { organisationId: caller.organisationId, label: 'Delivery check' };
  try {
    return await checkDelivery(deps, row, addOn, actor);
  } catch (error) {
    if (error instanceof HttpError) {
      return { delivered: false as const, reason: `The refund failed: ${error.message}` };
    }
    throw error;
  }
}

/** `POST /api/add-ons/{id}/refund` (refunds.ts): the add-on as it stands after its refund. */
export async function askForRefund(
  deps: AddOnServiceDeps,
  caller: AddOnCaller & AuditActor,
  id: string,
  body: AddOnRefundRequest,
): Promise<PurchasedAddOn> {
  const organisationId = signedIn(caller);
  return toPurchased(await requestRefund(deps, organisationId, caller, id, body));
}

/**
 * A payment buys the add-on it was made for: two purchases can cost the same (JSON with 3
 * engines for 5 pages and OpenACR JSON for 1 page are both $19), so the amount alone does not
 * tell them apart. takePayment checks account, purpose, domain, amount and the provider.
 */
async function assertPaidFor(
  db: AppDb,
  paymentId: string,
  userId: string,
  addOnId: string,
  pages: number,
): Promise<void> {
  const recorded = await findPayment(db, paymentId);
  if (!recorded || recorded.userId !== userId || recorded.purpose !== 'add_on') return;
  const { details } = recorded;
  if (details.addOnId !== addOnId || details.pages !== pages) {
    throw new InvalidError('This payment is not for this purchase; start the payment again.');
  }
}

function already(row: repo.AddOnRecord): AddOnPurchaseResponse {
  const purchased = toPurchased(row);
  return {
    message: `${purchased.name} was already bought with this payment; nothing more was charged.`,
    addOn: purchased,
  };
}

/** `GET /api/add-ons?domain=`: the caller's add-ons, newest first. */
export async function listAddOns(
  deps: AddOnServiceDeps,
  caller: AddOnCaller,
  domain: string | undefined,
): Promise<PurchasedAddOn[]> {
  const userId = signedIn(caller);
  const rows = await repo.listOwnAddOns(
    deps.db,
    userId,
    domain === undefined ? undefined : domains.normalizeDomain(domain),
  );
  return rows.map((row) => toPurchased(row));
}

/** `GET /api/add-ons/pages?domain=`: which pages a document bought now would be made from. */
export async function pagesFor(
  deps: AddOnServiceDeps,
  caller: AddOnCaller,
  input: string,
): Promise<AddOnPagesResponse> {
  const userId = signedIn(caller);
  const domain = await ownMonitoredDomain(deps.db, userId, input);
  const [availablePages, pages] = await Promise.all([
    countOwnerPages(deps.db, domain, userId),
    listLatestOwnerPages(deps.db, domain, userId, { limit: listedPages }),
  ]);
  return {
    domain,
    availablePages,
    pages: pages.map((page) => ({
      url: page.url,
      scannedAt: (page.completedAt ?? new Date(0)).toISOString(),
    })),
  };
}

/**
 * `GET /api/add-ons/{id}/download`: the document the add-on sells, for its buyer only (anyone
 * else gets the 404 of a missing add-on), made from the pages it covered when bought.
 */
export async function download(
  deps: AddOnServiceDeps,
  caller: AddOnCaller,
  id: string,
): Promise<FileAnswer> {
  const userId = signedIn(caller);
  const row = await repo.findOwnAddOn(deps.db, userId, id);
  const addOn = row && catalogueEntry(row.type);
  if (!row || !addOn) throw addOnNotFound();
  const { models, falsePositives } = await loadCoveredPages(deps, row, addOn);
  if (models.length === 0) {
    throw new NotFoundError('The scans this add-on was made from are no longer stored.');
  }
  return addOnDocument(addOn, models, deps.pool, falsePositives);
}
