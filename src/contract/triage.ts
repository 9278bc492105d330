/**
 * Triage of an issue on a domain, carried across scans by the issue fingerprint (Issue.id).
 * `fixed` and `reopened` are set by scans (seen gone, seen again); the others by people.
 */
export const triageStates = ['open', 'false_positive', 'accepted', 'fixed', 'reopened'] as const;
export type TriageState = (typeof triageStates)[number];

/** Where an issue can be sent. */
export const trackerProviders = ['github'] as const;
export type TrackerProvider = (typeof trackerProviders)[number];
