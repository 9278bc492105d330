import { z } from 'zod';

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

const optionalText = (label: string, max: number) =>
  z
    .string()
    .trim()
    .max(max, `${label} must be at most ${max} characters`)
    .transform((value) => (value === '' ? null : value))
    .nullable()
    .optional()
    .transform((value) => value ?? null);

/**
 * `PUT /api/billing/details`: who is billed, printed on every invoice issued afterwards (earlier
 * invoices keep the details they were issued with). The legal name is required; the rest may be
 * left empty, and an empty tax ID still prints as an empty "Tax ID" field.
 */
export const BuyerDetailsUpdate = z.strictObject({
  legalName: z
    .string()
    .trim()
    .min(1, 'Enter the legal name to put on invoices')
    .max(200, 'Legal name must be at most 200 characters'),
  billingEmail: z
    .string()
    .trim()
    .toLowerCase()
    .max(254, 'Please enter a valid billing email')
    .pipe(z.email('Please enter a valid billing email'))
    .nullable()
    .optional()
    .or(z.literal('').transform(() => null))
    .transform((value) => value ?? null),
  address: optionalText('Address', 500),
  country: z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^([A-Z]{2})?$/, 'Country must be a two-letter ISO code, like US or DE')
    .transform((value) => (value === '' ? null : value))
    .nullable()
    .optional()
    .transform((value) => value ?? null),
  taxId: z
    .string()
    .trim()
    .max(40, 'Tax ID must be at most 40 characters')
    .regex(
      /^[A-Za-z0-9 .\-/]*$/,
      'Tax ID may hold letters, digits, spaces, dots, dashes and slashes',
    )
    .transform((value) => (value === '' ? null : value))
    .nullable()
    .optional()
    .transform((value) => value ?? null),
});
export type BuyerDetailsUpdate = z.input<typeof BuyerDetailsUpdate>;

export const BuyerDetails = z.object({
  legalName: z.string().nullable(),
  billingEmail: z.string().nullable(),
  address: z.string().nullable(),
  country: z.string().nullable(),
  taxId: z.string().nullable(),
});
export type BuyerDetails = z.infer<typeof BuyerDetails>;

/** One row of Settings → Billing's invoice list. */
export const InvoiceSummary = z.object({
  id: z.uuid(),
  number: z.string(),
  kind: z.enum(invoiceKinds),
  amountCents: z.number().int(),
  currency: z.string(),
  issuedAt: z.string(),
  description: z.string(),
  /** Our PDF of it. */
  pdfUrl: z.string(),
  /** Stripe's hosted invoice page, in Stripe mode. */
  hostedUrl: z.string().nullable(),
});
export type InvoiceSummary = z.infer<typeof InvoiceSummary>;

export const InvoiceListResponse = z.object({ invoices: z.array(InvoiceSummary) });
export type InvoiceListResponse = z.infer<typeof InvoiceListResponse>;

export const InvoiceParams = z.strictObject({ id: z.uuid('Invoice id must be a UUID') });

/** The card on file: never the number, only what identifies it to its holder. */
export const CardOnFile = z.object({
  brand: z.string(),
  last4: z.string(),
  expMonth: z.number().int().nullable(),
  expYear: z.number().int().nullable(),
  updatedAt: z.string().nullable(),
});
export type CardOnFile = z.infer<typeof CardOnFile>;

export const CardResponse = z.object({
  card: CardOnFile.nullable(),
  provider: z.enum(['demo', 'stripe']),
});
export type CardResponse = z.infer<typeof CardResponse>;

/**
 * `POST /api/billing/card`: replace the card. With the demo provider the labelled demo form sends
 * a test card number and expiry (nothing is charged, only brand, last four and expiry are kept);
 * with Stripe the body is empty and the answer holds a SetupIntent's client secret the browser
 * confirms with Stripe.js, after which `POST /api/billing/card/confirm` reads the card back.
 */
export const ReplaceCardInput = z.strictObject({
  cardNumber: z
    .string()
    .transform((value) => value.replace(/[\s-]/g, ''))
    .pipe(z.string().regex(/^\d{12,19}$/, 'Card number must be 12 to 19 digits'))
    .optional(),
  expiry: z
    .string()
    .trim()
    .regex(/^(0[1-9]|1[0-2])\s*\/\s*(\d{2}|\d{4})$/, 'Expiry must be MM/YY')
    .optional(),
});
export type ReplaceCardInput = z.input<typeof ReplaceCardInput>;

export const ReplaceCardResponse = z.object({
  card: CardOnFile.nullable(),
  /** Stripe mode: confirm this SetupIntent in the browser, then call /api/billing/card/confirm. */
  clientSecret: z.string().nullable(),
  setupId: z.string().nullable(),
  demo: z.boolean(),
});
export type ReplaceCardResponse = z.infer<typeof ReplaceCardResponse>;

export const ConfirmCardInput = z.strictObject({ setupId: z.string().min(1).max(255) });
export type ConfirmCardInput = z.infer<typeof ConfirmCardInput>;
