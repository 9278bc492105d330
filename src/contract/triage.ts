import { z } from 'zod';
import { Impact } from './finding.js';
import { triageStates } from './triage-states.js';

export { triageStateLabels, triageStates, type TriageState } from './triage-states.js';

/** Where an issue can be sent. */
export const trackerProviders = ['github'] as const;
export type TrackerProvider = (typeof trackerProviders)[number];

// ---- The triage API (issue 27, item 1) ----------------------------------------------------------

/** What a person may set; `fixed` and `reopened` are a scan's to set. */

/** How many issues one change may name at once (a selection on the report). */
export const triageSelectionMax = 500;
export const triageTextMax = 2000;

const issueKeys = z
  .array(z.string().trim().min(1, 'An issue key is required').max(64), {
    error: 'Choose at least one issue',
  })
  .min(1, 'Choose at least one issue')
  .max(triageSelectionMax, `At most ${triageSelectionMax} issues at once`);

const requiredText = (message: string) =>
  z
    .string({ error: message })
    .trim()
    .min(1, message)
    .max(triageTextMax, `At most ${triageTextMax} characters`);

/** A day (`2027-03-31`) or an instant; the acceptance ends at the start of that day (UTC). */
const untilDate = z.union([z.iso.date(), z.iso.datetime({ offset: true })], {
  error: 'Give a date as YYYY-MM-DD',
});

/** One change to one issue or a selection: a discriminated union on `action`. */
export const TriageChangeRequest = z.discriminatedUnion(
  'action',
  [
    z.object({
      action: z.literal('false_positive'),
      issueKeys,
      note: requiredText('Say why this is a false positive'),
    }),
    z.object({
      action: z.literal('accept'),
      issueKeys,
      reason: requiredText("Say why this is accepted (won't fix)"),
      until: untilDate.nullish(),
    }),
    z.object({
      action: z.literal('open'),
      issueKeys,
      note: z.string().trim().max(triageTextMax).nullish(),
    }),
    z.object({
      action: z.literal('assign'),
      issueKeys,
      assigneeId: z.uuid('Choose a member of this organisation').nullable(),
    }),
  ],
  { error: 'One of false_positive, accept, open or assign' },
);
export type TriageChangeRequest = z.infer<typeof TriageChangeRequest>;
export type TriageAction = TriageChangeRequest['action'];

export const TriagePerson = z.object({ id: z.string(), name: z.string(), email: z.string() });
export type TriagePerson = z.infer<typeof TriagePerson>;

export const IssueTriage = z.object({
  issueKey: z.string(),
  state: z.enum(triageStates),
  note: z.string().nullable(),
  reason: z.string().nullable(),
  acceptedUntil: z.string().nullable(),
  assignee: TriagePerson.nullable(),
  ruleKey: z.string().nullable(),
  title: z.string().nullable(),
  impact: Impact.nullable(),
  lastSeenAt: z.string().nullable(),
  fixedAt: z.string().nullable(),
  updatedAt: z.string(),
  /** Who made the latest change; null when a scan did. */
  updatedBy: TriagePerson.nullable(),
});
export type IssueTriage = z.infer<typeof IssueTriage>;

export const TriageEvent = z.object({
  fromState: z.enum(triageStates).nullable(),
  toState: z.enum(triageStates),
  assignee: TriagePerson.nullable(),
  note: z.string().nullable(),
  /** Null when a scan changed it (seen gone, seen again, an acceptance that ran out). */
  actor: TriagePerson.nullable(),
  sourceScanId: z.string().nullable(),
  at: z.string(),
});
export type TriageEvent = z.infer<typeof TriageEvent>;

export const TriageListQuery = z.object({
  state: z.enum(triageStates, 'One of the triage states').optional(),
  assignedTo: z.literal('me', 'Only "me" is supported').optional(),
});
export type TriageListQuery = z.infer<typeof TriageListQuery>;

/** Where an issue is found: a page of the domain's latest scans, with the element. */
export const TriageIssuePlace = z.object({
  url: z.string(),
  scanId: z.string(),
  selector: z.string(),
  html: z.string(),
});

/** An issue in the latest scan of the domain's pages, with its triage (null: never triaged). */
export const TriageIssue = z.object({
  issueKey: z.string(),
  ruleKey: z.string(),
  /** The rule's title, stating the failure. */
  title: z.string(),
  impact: Impact,
  kind: z.enum(['violation', 'needs-review']),
  wcag: z.array(z.string()),
  places: z.array(TriageIssuePlace),
  state: z.enum(triageStates),
  triage: IssueTriage.nullable(),
});
export type TriageIssue = z.infer<typeof TriageIssue>;

export const TriageListResponse = z.object({
  domain: z.string(),
  /** The issues found now, each with its state (open when never triaged). */
  issues: z.array(TriageIssue),
  /** Every triaged issue, found now or not (a fixed one is not). */
  triage: z.array(IssueTriage),
});
export type TriageListResponse = z.infer<typeof TriageListResponse>;

export const TriageChangeResponse = z.object({ triage: z.array(IssueTriage) });
export type TriageChangeResponse = z.infer<typeof TriageChangeResponse>;

export const TriageHistoryResponse = z.object({
  triage: IssueTriage.nullable(),
  events: z.array(TriageEvent),
});
export type TriageHistoryResponse = z.infer<typeof TriageHistoryResponse>;

export const TriageIssueParams = z.object({
  domain: z.string().min(1).max(253),
  issueKey: z.string().min(1).max(64),
});
