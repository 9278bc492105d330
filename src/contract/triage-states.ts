/**
 * Triage of an issue on a domain, carried across scans by the issue fingerprint (Issue.id).
 * `fixed` and `reopened` are set by scans (seen gone, seen again); the others by people.
 * Plain data without zod, so the report shows the states without loading the schemas
 * (triage.ts builds its schemas from them and re-exports them).
 */
export const triageStates = ['open', 'false_positive', 'accepted', 'fixed', 'reopened'] as const;
export type TriageState = (typeof triageStates)[number];

export const triageStateLabels: Record<TriageState, string> = {
  open: 'Open',
  false_positive: 'False positive',
  accepted: "Accepted (won't fix)",
  fixed: 'Fixed',
  reopened: 'Re-opened',
};
