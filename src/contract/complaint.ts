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

export const SubmitComplaintRequest = z.strictObject({
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
  /**
   * The page of the site the visitor names (beyond the spec): the owner's inbox links it to that
   * page's findings. It must be on the domain the concern is about (checked by the server).
   */
  pageUrl: z
    .string()
    .trim()
    .max(2000, 'A page address is at most 2,000 characters')
    .optional()
    .transform((text) => text || undefined)
    .pipe(
      z
        .url({
          protocol: /^https?$/,
          error: 'Enter the full address of the page, such as https://example.com/page',
        })
        .optional(),
    ),
});
export type SubmitComplaintInput = z.input<typeof SubmitComplaintRequest>;
export type SubmitComplaintRequest = z.output<typeof SubmitComplaintRequest>;

export const SubmitComplaintResponse = z.object({
  success: z.literal(true),
  id: z.uuid(),
  /**
   * Nobody holds the domain verified right now: the concern is kept for the next owner who proves
   * control of the site (ADR 0007), and `message` says so to the visitor.
   */
  waiting: z.boolean(),
  message: z.string(),
});
export type SubmitComplaintResponse = z.infer<typeof SubmitComplaintResponse>;

// ---- The owner's inbox (spec dashboard-area §2 Complaints Management, §3, §4, §5, §7) ----------

/** Spec dashboard-area §3 "Complaint": the dashboard's vocabularies, also the stored ones. */
export const complaintTypes = ['accessibility', 'technical', 'compliance', 'general'] as const;
export type ComplaintType = (typeof complaintTypes)[number];
export const complaintStatuses = ['new', 'in_progress', 'resolved', 'closed'] as const;
export type ComplaintStatus = (typeof complaintStatuses)[number];
export const complaintPriorities = ['urgent', 'high', 'medium', 'low'] as const;
export type ComplaintPriority = (typeof complaintPriorities)[number];

/** A complaint that needs nothing more from the owner. */
export const isSettledStatus = (status: ComplaintStatus) =>
  status === 'resolved' || status === 'closed';

/**
 * How long an owner has to answer, in business days (Monday to Friday) from receipt, by priority
 * (beyond the spec). The one table the server and the inbox read.
 */
export const responseBusinessDays: Record<ComplaintPriority, number> = {
  urgent: 1,
  high: 3,
  medium: 7,
  low: 14,
};

/** `days` business days after `from`, at the same time of day (weekends are skipped, in UTC). */
export function addBusinessDays(from: Date, days: number): Date {
  const date = new Date(from.getTime());
  let left = days;
  while (left > 0) {
    date.setUTCDate(date.getUTCDate() + 1);
    const weekday = date.getUTCDay();
    if (weekday !== 0 && weekday !== 6) left -= 1;
  }
  return date;
}

/** When a complaint of this priority received at `createdAt` should have had its answer. */
export const responseDeadline = (createdAt: Date, priority: ComplaintPriority): Date =>
  addBusinessDays(createdAt, responseBusinessDays[priority]);

export const ComplaintEntry = z.object({
  id: z.string(),
  author: z.string(),
  message: z.string(),
  isInternal: z.boolean(),
  timestamp: z.string(),
});
export type ComplaintEntry = z.infer<typeof ComplaintEntry>;

export const Complaint = z.object({
  id: z.uuid(),
  domain: z.string(),
  type: z.enum(complaintTypes),
  status: z.enum(complaintStatuses),
  priority: z.enum(complaintPriorities),
  subject: z.string().nullable(),
  message: z.string(),
  submitterName: z.string().nullable(),
  submitterEmail: z.string(),
  /** The page of the site the visitor named, if any. */
  pageUrl: z.string().nullable(),
  /** The account the complaint is assigned to (the owner's own), or null. */
  assignedTo: z.uuid().nullable(),
  internalNotes: z.string().nullable(),
  conversation: z.array(ComplaintEntry),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** The first public reply, and the resolution: the public status page shows their dates. */
  answeredAt: z.string().nullable(),
  resolvedAt: z.string().nullable(),
  /** When an answer is due (responseBusinessDays), and whether it is late now. */
  respondBy: z.string(),
  overdue: z.boolean(),
  /**
   * The complaint arrived while the account held the domain verified and still does: it may be
   * answered and changed. False for one from an ownership that has ended (read only, ADR 0007).
   */
  actionable: z.boolean(),
});
export type Complaint = z.infer<typeof Complaint>;

export const complaintPageSizeMax = 100;
export const complaintPageSizeDefault = 20;
export const complaintSearchMaxLength = 200;

const emptyToUndefined = (value: unknown) => (value === '' ? undefined : value);

export const ComplaintListQuery = z.object({
  domain: z.preprocess(emptyToUndefined, z.string().trim().max(300).optional()),
  status: z.preprocess(
    emptyToUndefined,
    z.enum(complaintStatuses, 'Status must be new, in_progress, resolved or closed').optional(),
  ),
  type: z.preprocess(
    emptyToUndefined,
    z
      .enum(complaintTypes, 'Type must be accessibility, technical, compliance or general')
      .optional(),
  ),
  /** `me`: only the complaints assigned to the signed-in person ("Assigned to me"). */
  assignedTo: z.preprocess(
    emptyToUndefined,
    z.literal('me', 'assignedTo can only be "me"').optional(),
  ),
  /** Spec §5: matches subject, message and submitter e-mail, case-insensitively. */
  search: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .trim()
      .max(
        complaintSearchMaxLength,
        `Search must be at most ${complaintSearchMaxLength} characters`,
      )
      .optional(),
  ),
  limit: z.coerce
    .number('Limit must be a number')
    .int('Limit must be a whole number')
    .min(1, 'Limit must be at least 1')
    .max(complaintPageSizeMax, `Limit must be at most ${complaintPageSizeMax}`)
    .default(complaintPageSizeDefault),
  offset: z.coerce
    .number('Offset must be a number')
    .int('Offset must be a whole number')
    .min(0, 'Offset must be 0 or more')
    .optional(),
  /** 1 for the first `limit` complaints; an alternative to offset. */
  page: z.coerce
    .number('Page must be a number')
    .int('Page must be a whole number')
    .min(1, 'Page must be at least 1')
    .max(100_000, 'Page must be at most 100000')
    .optional(),
});
export type ComplaintListQuery = z.output<typeof ComplaintListQuery>;

/** Spec §2 counters: Total, New, In Progress, Urgent (urgent and not yet resolved or closed). */
export const ComplaintCounts = z.object({
  total: z.number().int(),
  new: z.number().int(),
  inProgress: z.number().int(),
  urgent: z.number().int(),
});
export type ComplaintCounts = z.infer<typeof ComplaintCounts>;

export const ComplaintListResponse = z.object({
  complaints: z.array(Complaint),
  /** How many complaints match the filters (all pages). */
  total: z.number().int(),
  limit: z.number().int(),
  offset: z.number().int(),
  /** The counters over every complaint of the owner's domains (of the chosen domain, if one). */
  counts: ComplaintCounts,
  /** The owner's domains that complaints can be about, for the domain filter. */
  domains: z.array(z.string()),
});
export type ComplaintListResponse = z.infer<typeof ComplaintListResponse>;

/** Any text: an id that names no complaint of the caller's, well-formed or not, is a 404. */
export const ComplaintIdParams = z.object({ id: z.string().max(100) });

/** A finding of the named page's latest scan, as the details dialog lists it. */
export const ComplaintPageFinding = z.object({
  title: z.string(),
  impact: z.string(),
  selector: z.string(),
  helpUrl: z.string(),
});

/** The page a complaint names and what the owner's scans know about it (beyond the spec). */
export const ComplaintPage = z.object({
  url: z.string(),
  /** The owner's latest completed scan of the page, or null when it was never scanned. */
  scan: z
    .object({
      id: z.uuid(),
      completedAt: z.string().nullable(),
      accessibilityScore: z.number().int().nullable(),
      totalIssues: z.number().int(),
    })
    .nullable(),
  /** Its most severe findings, at most complaintPageFindingsShown. */
  findings: z.array(ComplaintPageFinding),
  /** A scan of the page the owner started that has not finished yet. */
  pendingScanId: z.uuid().nullable(),
});
export type ComplaintPage = z.infer<typeof ComplaintPage>;
export const complaintPageFindingsShown = 5;

export const ComplaintDetailsResponse = z.object({
  complaint: Complaint,
  page: ComplaintPage.nullable(),
});
export type ComplaintDetailsResponse = z.infer<typeof ComplaintDetailsResponse>;

export const ComplaintResponse = z.object({ complaint: Complaint });
export type ComplaintResponse = z.infer<typeof ComplaintResponse>;

export const UpdateComplaintStatusRequest = z.strictObject({
  status: z.enum(complaintStatuses, 'Status must be new, in_progress, resolved or closed'),
});
export type UpdateComplaintStatusRequest = z.infer<typeof UpdateComplaintStatusRequest>;

export const complaintTextMaxLength = 5000;
export const complaintNotesBlankMessage = 'Notes must not be blank.';
export const complaintReplyBlankMessage = 'Reply must not be blank.';

/** Spec §5: notes must be non-blank. */
export const UpdateComplaintNotesRequest = z.strictObject({
  notes: z
    .string(complaintNotesBlankMessage)
    .trim()
    .min(1, complaintNotesBlankMessage)
    .max(complaintTextMaxLength, `Notes must be at most 5,000 characters`),
});
export type UpdateComplaintNotesRequest = z.infer<typeof UpdateComplaintNotesRequest>;

/** Spec §5, §7: a reply must be non-blank; internal ones are notes to the team, never sent. */
export const ComplaintReplyRequest = z.strictObject({
  message: z
    .string(complaintReplyBlankMessage)
    .trim()
    .min(1, complaintReplyBlankMessage)
    .max(complaintTextMaxLength, `Reply must be at most 5,000 characters`),
  isInternal: z.boolean('isInternal must be true or false').default(false),
});
export type ComplaintReplyInput = z.input<typeof ComplaintReplyRequest>;
export type ComplaintReplyRequest = z.output<typeof ComplaintReplyRequest>;

/** Spec §6 assignedTo: a member of the organisation who is not a viewer, or nobody. */
export const AssignComplaintRequest = z.strictObject({
  assignedTo: z.uuid('assignedTo must be an account id or null').nullable(),
});
export type AssignComplaintRequest = z.infer<typeof AssignComplaintRequest>;
