/**
 * Vocabularies of an organisation's billing account and its invoices (issue: annual billing,
 * invoices and receipts, card on file). Stored as text + CHECK; the API uses the same words.
 */

/** How often an organisation is charged for its domains. */
export const billingIntervals = ['month', 'year'] as const;
export type BillingInterval = (typeof billingIntervals)[number];

/** An invoice for a charge, or a credit note for a refund of one. */
export const invoiceKinds = ['invoice', 'credit_note'] as const;
export type InvoiceKind = (typeof invoiceKinds)[number];

/** One line of an invoice, in US cents. */
export interface InvoiceLine {
  description: string;
  quantity: number;
  unitCents: number;
  amountCents: number;
}

/** Who sold or bought: printed on the invoice exactly as entered, tax fields kept even if empty. */
export interface InvoiceParty {
  name: string;
  email?: string;
  address?: string;
  country?: string;
  taxId?: string;
}
