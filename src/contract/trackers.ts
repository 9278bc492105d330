import { z } from 'zod';

/**
 * Sending issues where a site team works (issue 27, item 3): GitHub issues created with the
 * organisation's token, a CSV Jira's importer reads, and a signed webhook on new critical and
 * serious issues. Secrets are write-only: the API says whether one is set, never what it is.
 */

/** GitHub's `owner/name`, as in its URLs. */
export const githubRepoPattern = /^[A-Za-z0-9_.-]{1,100}\/[A-Za-z0-9_.-]{1,100}$/;

export const WebhookDelivery = z.object({
  id: z.number().int(),
  event: z.string(),
  url: z.string(),
  /** The receiver's HTTP status; null when no answer came (error says why). */
  statusCode: z.number().int().nullable(),
  error: z.string().nullable(),
  createdAt: z.string(),
});
export type WebhookDelivery = z.infer<typeof WebhookDelivery>;

export const IntegrationSettings = z.object({
  githubApiUrl: z.string(),
  githubRepo: z.string().nullable(),
  githubTokenSet: z.boolean(),
  webhookUrl: z.string().nullable(),
  webhookSecretSet: z.boolean(),
  /** The latest webhook delivery attempts, newest first. */
  deliveries: z.array(WebhookDelivery),
});
export type IntegrationSettings = z.infer<typeof IntegrationSettings>;

/**
 * A change of the settings: a field left out stays as it is; null (or an empty token or secret)
 * clears it. Addresses and the repository name are checked by the service (clear 400s).
 */
export const UpdateIntegrationsRequest = z.strictObject({
  githubApiUrl: z.string().trim().max(500).optional(),
  githubRepo: z.string().trim().max(201).nullable().optional(),
  githubToken: z.string().trim().max(500).optional(),
  webhookUrl: z.string().trim().max(2000).nullable().optional(),
  webhookSecret: z.string().max(500).optional(),
});
export type UpdateIntegrationsRequest = z.infer<typeof UpdateIntegrationsRequest>;

/** One issue or a selection, by fingerprint (contract Issue.id). */
export const TrackerExportRequest = z.strictObject({
  issueKeys: z.array(z.string().min(1).max(200)).min(1, 'Choose at least one issue').max(50),
});
export type TrackerExportRequest = z.infer<typeof TrackerExportRequest>;

export const TrackerLink = z.object({
  issueKey: z.string(),
  url: z.string(),
  externalId: z.string(),
});
export type TrackerLink = z.infer<typeof TrackerLink>;

export const TrackerExportResult = z.object({
  created: z.array(TrackerLink),
  /** Sent before: the stored link, not a second issue. */
  alreadySent: z.array(TrackerLink),
});
export type TrackerExportResult = z.infer<typeof TrackerExportResult>;

export const JiraCsvQuery = z.object({
  /** Comma-separated fingerprints. */
  keys: z.string().min(1, 'Choose at least one issue').max(10_000),
});
