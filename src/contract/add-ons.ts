import { z } from 'zod';
import { billingCurrency } from './billing.js';

/**
 * The add-ons panel's reads (spec dashboard-area §2 "Add-ons panel", §3 "Add-on catalogue
 * entry"); the purchase and its answer are in domains.ts beside the catalogue.
 */

/** `GET /api/add-ons/catalogue`: the eight entries of spec §9, prices in US dollars. */
export const AddOnCatalogueEntry = z.object({
  id: z.string(),
  name: z.string(),
  basePrice: z.number(),
  perPagePrice: z.number(),
  currency: z.literal(billingCurrency),
  type: z.enum(['json', 'openacr', 'pdf', 'vpat']),
  whiteLabel: z.boolean(),
  description: z.string(),
});
export const AddOnCatalogueResponse = z.array(AddOnCatalogueEntry);
export type AddOnCatalogueResponse = z.infer<typeof AddOnCatalogueResponse>;

/** `GET /api/add-ons?domain=` (the caller's add-ons, of one domain when given). */
export const AddOnListQuery = z.strictObject({
  domain: z.string().trim().min(1, 'Enter the domain').max(300).optional(),
});

/** `GET /api/add-ons/pages?domain=`: the scanned pages a document bought now would cover. */
export const AddOnPagesQuery = z.strictObject({
  domain: z.string().trim().min(1, 'Enter the domain').max(300),
});
export const AddOnPagesResponse = z.object({
  domain: z.string(),
  /** Distinct pages of the domain with a completed scan by its owner. */
  availablePages: z.number().int(),
  /** The latest scanned pages first (at most 50 listed). */
  pages: z.array(z.object({ url: z.string(), scannedAt: z.string() })),
});
export type AddOnPagesResponse = z.infer<typeof AddOnPagesResponse>;

export const AddOnParams = z.strictObject({ id: z.uuid('Add-on id must be a UUID') });

/**
 * `POST /api/add-ons/{id}/refund`: the refund the terms promise for a report rejected in a
 * procurement or compliance review, asked within the catalogue's window (reportRefundPolicy).
 */
export const AddOnRefundRequest = z.strictObject({
  reason: z
    .string()
    .trim()
    .min(10, 'Say which review rejected the report and why (at least 10 characters)')
    .max(500, 'Keep the reason under 500 characters'),
});
export type AddOnRefundRequest = z.input<typeof AddOnRefundRequest>;
