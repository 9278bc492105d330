import { z } from 'zod';
import { billingIntervals } from './invoice.js';

/**
 * Annual billing (issue 26, ADR 0037): an organisation pays for its domains monthly or yearly
 * (the catalogue's yearly discount). Switching to yearly takes effect now: the unused part of
 * each paid domain's month is credited and a year from today is charged, figures shown before
 * the owner confirms. Switching back to monthly takes effect as each domain's year ends. Every
 * amount is computed by the server; a request names only the interval.
 */

export const ChangeIntervalRequest = z.strictObject({
  interval: z.enum(billingIntervals, {
    message: "The billing interval must be 'month' or 'year'.",
  }),
});
export type ChangeIntervalRequest = z.infer<typeof ChangeIntervalRequest>;

export const IntervalPreviewQuery = z.strictObject({
  interval: z.enum(billingIntervals, {
    message: "The billing interval must be 'month' or 'year'.",
  }),
});

/** One paid domain in a switch: the unused part of its period credited, the new period charged. */
export const IntervalChangeLine = z.object({
  domain: z.string(),
  domainIndex: z.number().int(),
  /** Its price for the new interval, in US cents. */
  priceCents: z.number().int(),
  /** The unused part of the period in force, credited. */
  creditCents: z.number().int(),
  /** What it costs from now to the end of its new period. */
  chargeCents: z.number().int(),
});
export type IntervalChangeLine = z.infer<typeof IntervalChangeLine>;

export const IntervalChangePreview = z.object({
  currentInterval: z.enum(billingIntervals),
  interval: z.enum(billingIntervals),
  /** 'now': charged and in force at once; 'period_end': each domain changes at its renewal. */
  effective: z.enum(['now', 'period_end']),
  lines: z.array(IntervalChangeLine),
  creditCents: z.number().int(),
  chargeCents: z.number().int(),
  /** Charged on confirming: charges less credits, never below zero. */
  dueCents: z.number().int(),
  /** The end of the new period of the domains switched now; null when nothing changes now. */
  periodEnd: z.string().nullable(),
  yearlyDiscountPercent: z.number(),
  currency: z.string(),
});
export type IntervalChangePreview = z.infer<typeof IntervalChangePreview>;

export const IntervalChangeResponse = IntervalChangePreview.extend({
  payment: z
    .object({ transactionId: z.string(), amountCents: z.number().int(), demo: z.boolean() })
    .nullable(),
});
export type IntervalChangeResponse = z.infer<typeof IntervalChangeResponse>;
