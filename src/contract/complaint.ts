import { z } from 'zod';

/**
 * A visitor's concern about a domain, sent from its public status page (spec public-area §3
 * "Complaint form", §5, §7). The form's words (complaint, suggestion, question; normal, urgent)
 * are the visitor's; the dashboard files them in its own vocabulary (dashboard-area §4).
 */

export const complaintFormTypes = ['complaint', 'suggestion', 'question'] as const;
export type ComplaintFormType = (typeof complaintFormTypes)[number];

export const complaintFormPriorities = ['normal', 'urgent'] as const;
export type ComplaintFormPriority = (typeof complaintFormPriorities)[number];

/** Spec §5: the one message for every missing required field, on the server as in the form. */
export const complaintRequiredMessage = 'Email, message, and privacy consent are required.';

export const complaintMessageMaxLength = 5000;
export const complaintNameMaxLength = 200;

/** A missing value gets the spec's required-fields message; a wrong one keeps zod's own words. */
const requiredField = {
  error: (issue: { input?: unknown }) =>
    issue.input === undefined || issue.input === null ? complaintRequiredMessage : undefined,
};

export const SubmitComplaintRequest = z.object({
  domain: z
    .string('Name the domain the concern is about')
    .trim()
    .min(1, 'Name the domain the concern is about')
    .max(300, 'A domain is at most 300 characters'),
  name: z
    .string()
    .trim()
    .max(complaintNameMaxLength, `Name must be at most ${complaintNameMaxLength} characters`)
    .optional(),
  email: z
    .string(requiredField)
    .trim()
    .toLowerCase()
    .min(1, complaintRequiredMessage)
    .max(254, 'Please enter a valid email')
    .pipe(z.email('Please enter a valid email')),
  type: z
    .enum(complaintFormTypes, 'Type must be complaint, suggestion or question')
    .default('complaint'),
  priority: z.enum(complaintFormPriorities, 'Priority must be normal or urgent').default('normal'),
  message: z
    .string(requiredField)
    .trim()
    .min(1, complaintRequiredMessage)
    .max(
      complaintMessageMaxLength,
      `Message must be at most ${complaintMessageMaxLength.toLocaleString('en-US')} characters`,
    ),
  privacyConsent: z.literal(true, complaintRequiredMessage),
});
export type SubmitComplaintInput = z.input<typeof SubmitComplaintRequest>;
export type SubmitComplaintRequest = z.output<typeof SubmitComplaintRequest>;

export const SubmitComplaintResponse = z.object({ success: z.literal(true), id: z.uuid() });
export type SubmitComplaintResponse = z.infer<typeof SubmitComplaintResponse>;
