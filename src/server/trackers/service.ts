import { createHmac, randomUUID } from 'node:crypto';
import {
  githubRepoPattern,
  issueFingerprint,
  type IntegrationSettings,
  type TrackerExportResult,
  type TrackerLink,
  type UpdateIntegrationsRequest,
  type WebhookDelivery,
} from '#contract/index.js';
import { issueTitle } from '#contract/rule-guidance/index.js';
import type { AppDb } from '#db/client.js';
import { artifactUrl } from '#db/stores/artifacts.js';
import { listFinishedSiteAudits } from '#db/stores/rule-pages.js';
import * as scanStore from '#db/stores/scans.js';
import {
  findMonitoringSettings,
  findSiteAudit,
  isSiteAuditPage,
  listPagesWithNewIssues,
} from '#db/stores/site-audit-reads.js';
import { findOwnMonitored } from '#db/stores/domains.js';
import { falsePositivesOfScan } from '#db/stores/triage.js';
import * as store from '#db/stores/trackers.js';
import { githubIssueOf, jiraCsvOf, type TrackerIssue } from '#reports/tracker-issues.js';
import { createTargetPolicy, safeSend, UrlSafetyError, type SafeSendResult } from '#scanner';
import { recordAudit, type AuditActor } from '../audit-log/service.js';
import { HttpError, InvalidError, NotFoundError } from '../http-errors.js';
import { normalizeDomain } from '../domains/domain.js';
import type { SecretSealer } from './sealer.js';

/**
 * Issue trackers and the webhook (issue 27, item 3): the organisation's settings with sealed
 * secrets, GitHub issues created through its REST API (one per issue fingerprint, never twice),
 * the Jira CSV, and signed webhook deliveries, each attempt recorded. Every outbound call goes
 * through the scanner's address rules, as scans do.
 */

export interface TrackerDeps {
  db: AppDb;
  sealer: SecretSealer;
  publicUrl: string;
  /** ALLOW_PRIVATE_TARGETS: tests and local use reach loopback stand-ins (and plain http there). */
  allowPrivateTargets: boolean;
  allowedPrivateOrigins?: string[] | undefined;
  /** Waits before each webhook attempt after the first; tests shorten them. */
  webhookRetryDelaysMs?: number[];
}

export const defaultWebhookRetryDelaysMs = [2_000, 10_000];
const deliveriesShown = 20;

const policyOf = (deps: TrackerDeps) =>
  createTargetPolicy({
    allowPrivateNetwork: deps.allowPrivateTargets,
    allowedPrivateOrigins: deps.allowedPrivateOrigins ?? [],
  });

const loopbackHosts = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** An https address, or plain http to loopback where private targets are allowed (tests). */
function parseOutboundUrl(deps: TrackerDeps, value: string, what: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new InvalidError(
      `${what} is not a web address: enter one like https://example.com/hook.`,
    );
  }
  const loopback = loopbackHosts.has(url.hostname) || url.hostname.startsWith('127.');
  if (
    url.protocol === 'https:' ||
    (url.protocol === 'http:' && loopback && deps.allowPrivateTargets)
  ) {
    if (url.username || url.password) {
      throw new InvalidError(`${what} must not carry a user name or password.`);
    }
    return url.href;
  }
  throw new InvalidError(`${what} must start with https:// so what is sent is encrypted.`);
}

async function settingsView(
  deps: TrackerDeps,
  organisationId: string,
  row: store.TrackerSettingsRow | undefined,
): Promise<IntegrationSettings> {
  const deliveries = await store.listWebhookDeliveries(deps.db, organisationId, deliveriesShown);
  return {
    githubApiUrl: row?.githubApiUrl ?? 'https://api.github.com',
    githubRepo: row?.githubRepo ?? null,
    githubTokenSet: Boolean(row?.githubTokenSealed),
    webhookUrl: row?.webhookUrl ?? null,
    webhookSecretSet: Boolean(row?.webhookSecretSealed),
    deliveries: deliveries.map(deliveryOf),
  };
}

function deliveryOf(row: Awaited<ReturnType<typeof store.recordWebhookDelivery>>): WebhookDelivery {
  return {
    id: row.id,
    event: row.event,
    url: row.url,
    statusCode: row.statusCode,
    error: row.error,
    createdAt: row.createdAt.toISOString(),
  };
}

export async function readIntegrations(
  deps: TrackerDeps,
  organisationId: string,
): Promise<IntegrationSettings> {
  return settingsView(
    deps,
    organisationId,
    await store.findTrackerSettings(deps.db, organisationId),
  );
}

export async function updateIntegrations(
  deps: TrackerDeps,
  organisationId: string,
  input: UpdateIntegrationsRequest,
  actor: AuditActor,
): Promise<IntegrationSettings> {
  const change: store.TrackerSettingsChange = {};
  if (input.githubApiUrl !== undefined) {
    change.githubApiUrl = parseOutboundUrl(
      deps,
      input.githubApiUrl || 'https://api.github.com',
      'The GitHub API address',
    ).replace(/\/+$/, '');
  }
  if (input.githubRepo !== undefined) {
    const repo = input.githubRepo?.replace(/^https:\/\/github\.com\//, '').replace(/\/+$/, '');
    if (repo && !githubRepoPattern.test(repo)) {
      throw new InvalidError(
        'The GitHub repository must be written owner/name, as in github.com/owner/name.',
      );
    }
    change.githubRepo = repo || null;
  }
  if (input.githubToken !== undefined) {
    change.githubTokenSealed = input.githubToken ? await deps.sealer.seal(input.githubToken) : null;
  }
  if (input.webhookUrl !== undefined) {
    change.webhookUrl = input.webhookUrl
      ? parseOutboundUrl(deps, input.webhookUrl, 'The webhook URL')
      : null;
  }
  if (input.webhookSecret !== undefined) {
    if (input.webhookSecret && input.webhookSecret.length < 16) {
      throw new InvalidError('The webhook secret must be at least 16 characters long.');
    }
    change.webhookSecretSealed = input.webhookSecret
      ? await deps.sealer.seal(input.webhookSecret)
      : null;
  }
  const row = await deps.db.transaction(async (tx) => {
    const before = await store.findTrackerSettings(tx, organisationId);
    const saved = await store.saveTrackerSettings(tx, organisationId, change, actor.userId ?? null);
    const changed = settingsChangeOf(before, change);
    if (Object.keys(changed).length > 0) {
      await recordAudit(
        tx,
        { ...actor, organisationId },
        'integrations.changed',
        { type: 'organisation', id: organisationId },
        changed,
      );
    }
    return saved;
  });
  return settingsView(deps, organisationId, row);
}

/**
 * What a settings change did, as the audit log keeps it: addresses and the repository as they
 * now read, a secret only as set, replaced or removed (never its value, sealed or not), and the
 * webhook URL by its origin alone, since receivers often carry a secret in the path or query.
 */
function settingsChangeOf(
  before: store.TrackerSettingsRow | undefined,
  change: store.TrackerSettingsChange,
): Record<string, string | null> {
  const changed: Record<string, string | null> = {};
  const apiBefore = before?.githubApiUrl ?? 'https://api.github.com';
  if (change.githubApiUrl !== undefined && change.githubApiUrl !== apiBefore) {
    changed.githubApiUrl = change.githubApiUrl;
  }
  if (change.githubRepo !== undefined && change.githubRepo !== (before?.githubRepo ?? null)) {
    changed.githubRepo = change.githubRepo;
  }
  if (change.webhookUrl !== undefined && change.webhookUrl !== (before?.webhookUrl ?? null)) {
    changed.webhookUrl =
      change.webhookUrl === null ? null : `${new URL(change.webhookUrl).origin}/…`;
  }
  const secret = (had: boolean, next: string | null | undefined) => {
    if (next === undefined) return undefined;
    if (next === null) return had ? 'removed' : undefined;
    return had ? 'replaced' : 'set';
  };
  const token = secret(Boolean(before?.githubTokenSealed), change.githubTokenSealed);
  if (token) changed.githubToken = token;
  const webhookSecret = secret(Boolean(before?.webhookSecretSealed), change.webhookSecretSealed);
  if (webhookSecret) changed.webhookSecret = webhookSecret;
  return changed;
}

// ---- Issues of a domain's latest site audit --------------------------------------------------

interface OwnDomain {
  id: string;
  name: string;
  organisationId: string;
}

async function ownDomain(
  db: AppDb,
  organisationId: string,
  domainParam: string,
): Promise<OwnDomain> {
  let name: string;
  try {
    name = normalizeDomain(domainParam);
  } catch {
    throw new NotFoundError('Domain not found');
  }
  const domain = await findMonitoringSettings(db, organisationId, name);
  if (!domain) throw new NotFoundError('Domain not found');
  return { id: domain.id, name, organisationId };
}

/**
 * The chosen issues as found in the domain's latest site audit, in the order asked. An issue the
 * audit does not hold (found by a later scan of one page, as the triage screen and a single
 * scan's report show them) is taken from the organisation's latest scan of each page instead.
 */
async function latestIssues(
  deps: TrackerDeps,
  domain: OwnDomain,
  issueKeys: string[],
): Promise<TrackerIssue[]> {
  const [latest] = await listFinishedSiteAudits(deps.db, domain.id, 1);
  const rows = latest ? await store.listAuditIssues(deps.db, latest.id, issueKeys) : [];
  const inAudit = new Set(rows.map((row) => row.issueKey));
  const elsewhere = issueKeys.filter((key) => !inAudit.has(key));
  if (elsewhere.length > 0) {
    rows.push(
      ...(await store.listLatestPageIssues(deps.db, domain.organisationId, domain.name, elsewhere)),
    );
  }
  const byKey = new Map<string, TrackerIssue>();
  for (const row of rows) {
    let issue = byKey.get(row.issueKey);
    if (!issue) {
      issue = {
        issueKey: row.issueKey,
        ruleKey: row.ruleKey,
        title: issueTitle(row),
        impact: row.impact,
        wcag: row.wcag,
        engines: row.engines,
        selector: row.selector,
        html: row.html,
        helpUrl: row.helpUrl,
        pages: [],
      };
      byKey.set(row.issueKey, issue);
    }
    if (issue.pages.some((page) => page.url === row.pageUrl)) continue;
    const shot = row.screenshots[0];
    issue.pages.push({
      url: row.pageUrl,
      reportUrl: `${deps.publicUrl}/report/${row.scanId}`,
      screenshotUrl: shot
        ? `${deps.publicUrl}${shot.startsWith('/') ? shot : artifactUrl(shot)}`
        : null,
    });
  }
  const missing = issueKeys.filter((key) => !byKey.has(key));
  if (missing.length > 0) {
    throw new NotFoundError(
      `${missing.length === 1 ? 'One chosen issue is' : `${missing.length} chosen issues are`} not in the domain's latest scans: reload the page and choose again.`,
    );
  }
  return issueKeys.map((key) => byKey.get(key)!);
}

export async function jiraCsv(
  deps: TrackerDeps,
  organisationId: string,
  domainParam: string,
  issueKeys: string[],
): Promise<string> {
  const domain = await ownDomain(deps.db, organisationId, domainParam);
  const keys = [...new Set(issueKeys)];
  if (keys.length > 50) throw new InvalidError('Choose at most 50 issues for one file.');
  return jiraCsvOf(await latestIssues(deps, domain, keys));
}

// ---- GitHub ----------------------------------------------------------------------------------

/** GitHub's answer, in words an owner can act on; status 4xx for settings they can fix. */
function githubError(response: SafeSendResult, repo: string, created: number): HttpError {
  let detail = '';
  try {
    const parsed = JSON.parse(response.body) as { message?: unknown };
    if (typeof parsed.message === 'string') detail = `: "${parsed.message}"`;
  } catch {
    // Not JSON: the status says enough.
  }
  const before =
    created > 0 ? ` ${created} issue${created === 1 ? ' was' : 's were'} created before it.` : '';
  const remaining = response.headers['x-ratelimit-remaining'];
  if (response.status === 429 || (response.status === 403 && remaining === '0')) {
    const reset = Number(response.headers['x-ratelimit-reset']);
    const when =
      Number.isFinite(reset) && reset > 0
        ? ` after ${new Date(reset * 1000).toISOString()}`
        : ' later';
    return new HttpError(
      429,
      `GitHub's rate limit for this token is reached: try again${when}.${before}`,
    );
  }
  switch (response.status) {
    case 401:
      return new InvalidError(
        `GitHub refused the token (401${detail}): enter a valid token in Settings → Integrations.${before}`,
      );
    case 403:
      return new InvalidError(
        `GitHub refused to create issues in ${repo} with this token (403${detail}): it needs write access to issues.${before}`,
      );
    case 404:
      return new InvalidError(
        `GitHub found no repository ${repo} this token can see (404): check the name and the token's access.${before}`,
      );
    case 410:
      return new InvalidError(`Issues are turned off in ${repo} (410).${before}`);
    case 422:
      return new InvalidError(`GitHub could not create the issue (422${detail}).${before}`);
    default:
      return new HttpError(502, `GitHub answered ${response.status}${detail}.${before}`);
  }
}

export async function exportToGithub(
  deps: TrackerDeps,
  organisationId: string,
  domainParam: string,
  issueKeys: string[],
  actorId: string | null,
): Promise<TrackerExportResult> {
  const domain = await ownDomain(deps.db, organisationId, domainParam);
  const domainId = domain.id;
  const settings = await store.findTrackerSettings(deps.db, organisationId);
  const token = await deps.sealer.open(settings?.githubTokenSealed);
  if (!settings?.githubRepo || !token) {
    throw new InvalidError(
      'Set a GitHub repository and token in Settings → Integrations before sending issues.',
    );
  }
  const keys = [...new Set(issueKeys)];
  const issues = await latestIssues(deps, domain, keys);
  const existing = new Map(
    (await store.listTrackerLinksFor(deps.db, domainId, keys))
      .filter((link) => link.provider === 'github')
      .map((link) => [link.issueKey, link]),
  );
  const result: TrackerExportResult = { created: [], alreadySent: [] };
  const policy = policyOf(deps);
  const endpoint = new URL(`${settings.githubApiUrl}/repos/${settings.githubRepo}/issues`);
  for (const issue of issues) {
    const sent = existing.get(issue.issueKey);
    if (sent) {
      result.alreadySent.push({
        issueKey: sent.issueKey,
        url: sent.url,
        externalId: sent.externalId,
      });
      continue;
    }
    const { title, body } = githubIssueOf(issue);
    let response: SafeSendResult;
    try {
      response = await safeSend(endpoint, {
        policy,
        headers: {
          accept: 'application/vnd.github+json',
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          'user-agent': 'Conformly',
          'x-github-api-version': '2022-11-28',
        },
        body: JSON.stringify({ title, body, labels: ['accessibility'] }),
        timeoutMs: 15_000,
      });
    } catch (error) {
      if (error instanceof UrlSafetyError) {
        throw new InvalidError(`The GitHub API address is refused: ${error.message}`);
      }
      throw new HttpError(
        502,
        `GitHub could not be reached at ${endpoint.origin}: ${error instanceof Error ? error.message : 'no answer'}.`,
      );
    }
    if (response.status !== 201)
      throw githubError(response, settings.githubRepo, result.created.length);
    const answer = JSON.parse(response.body) as { number?: unknown; html_url?: unknown };
    const link: TrackerLink = {
      issueKey: issue.issueKey,
      url: typeof answer.html_url === 'string' ? answer.html_url : endpoint.href,
      externalId: String(answer.number ?? ''),
    };
    const stored = await store.insertTrackerLink(deps.db, {
      domainId,
      provider: 'github',
      createdBy: actorId,
      ...link,
    });
    // Another request sent it at the same moment: its link stands, this one is reported.
    (stored ? result.created : result.alreadySent).push(link);
  }
  return result;
}

// ---- The signed webhook ----------------------------------------------------------------------

/** The headers a receiver checks: HMAC-SHA256 over `timestamp.body` with the shared secret. */
export function webhookSignature(secret: string, timestamp: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

const retryable = (status: number | null) => status === null || status === 429 || status >= 500;

/**
 * Posts one event, retrying a failed delivery (no answer, 429, 5xx) after each of the retry
 * delays; every attempt is recorded. Returns the last attempt.
 */
async function deliver(
  deps: TrackerDeps,
  organisationId: string,
  target: { url: string; secret: string },
  event: string,
  payload: unknown,
  /** The same for every delivery of one event (a job run again), so a receiver can drop repeats. */
  deliveryId: string = randomUUID(),
): Promise<WebhookDelivery> {
  const delays = deps.webhookRetryDelaysMs ?? defaultWebhookRetryDelaysMs;
  const body = JSON.stringify(payload);
  const policy = policyOf(deps);
  let last: WebhookDelivery | undefined;
  for (let attempt = 0; attempt <= delays.length; attempt += 1) {
    if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, delays[attempt - 1]));
    const timestamp = String(Math.floor(Date.now() / 1000));
    let statusCode: number | null = null;
    let error: string | null = null;
    try {
      const response = await safeSend(new URL(target.url), {
        policy,
        headers: {
          'content-type': 'application/json',
          'user-agent': 'Conformly-Webhook',
          'x-conformly-event': event,
          'x-conformly-delivery': deliveryId,
          'x-conformly-timestamp': timestamp,
          'x-conformly-signature': webhookSignature(target.secret, timestamp, body),
        },
        body,
        timeoutMs: 10_000,
        maxBytes: 4_096,
      });
      statusCode = response.status;
      if (statusCode < 200 || statusCode >= 300) error = `The receiver answered ${statusCode}.`;
    } catch (caught) {
      error =
        caught instanceof Error ? `No answer: ${caught.message}` : 'No answer from the receiver.';
    }
    last = deliveryOf(
      await store.recordWebhookDelivery(deps.db, {
        organisationId,
        event,
        url: target.url,
        statusCode,
        error,
      }),
    );
    if (error === null || !retryable(statusCode)) break;
  }
  return last!;
}

async function webhookTarget(deps: TrackerDeps, organisationId: string) {
  const settings = await store.findTrackerSettings(deps.db, organisationId);
  const secret = await deps.sealer.open(settings?.webhookSecretSealed);
  if (!settings?.webhookUrl || !secret) return undefined;
  return { url: settings.webhookUrl, secret };
}

export async function sendTestWebhook(
  deps: TrackerDeps,
  organisationId: string,
): Promise<WebhookDelivery> {
  const target = await webhookTarget(deps, organisationId);
  if (!target) {
    throw new InvalidError('Save a webhook URL and secret in Settings → Integrations first.');
  }
  return deliver(deps, organisationId, target, 'ping', {
    event: 'ping',
    message: 'A test delivery from Conformly: the signature checks out if you can read this.',
    sentAt: new Date().toISOString(),
  });
}

const webhookImpacts = new Set(['critical', 'serious']);

/**
 * After a domain's site audit: posts its new critical and serious issues (new since the previous
 * audit, as the alert e-mail counts them) to the organisation's webhook, if one is set.
 */
export async function notifyNewIssues(
  deps: TrackerDeps,
  auditId: string,
): Promise<{ sent: boolean; reason?: string }> {
  const audit = await findSiteAudit(deps.db, auditId);
  if (!audit?.userId || !['completed', 'failed'].includes(audit.status)) {
    return { sent: false, reason: 'not a finished site audit' };
  }
  const target = await webhookTarget(deps, audit.userId);
  if (!target) return { sent: false, reason: 'no webhook set' };
  const found: {
    id: string;
    title: string;
    impact: string;
    wcag: string[];
    pageUrl: string;
    selector: string;
    reportUrl: string;
  }[] = [];
  for (const page of await listPagesWithNewIssues(deps.db, audit.id)) {
    const wanted = new Set(page.newFingerprints);
    for (const issue of await scanStore.listIssues(deps.db, page.issuesOf)) {
      if (issue.kind !== 'violation' || !webhookImpacts.has(issue.impact)) continue;
      const fingerprint = issueFingerprint({
        ruleKey: issue.ruleKey,
        selector: issue.selector,
        html: issue.html,
      });
      if (!wanted.has(fingerprint)) continue;
      found.push({
        id: issue.issueKey,
        title: issueTitle(issue),
        impact: issue.impact,
        wcag: issue.wcag,
        pageUrl: page.url,
        selector: issue.selector,
        reportUrl: `${deps.publicUrl}/report/${page.id}`,
      });
    }
  }
  if (found.length === 0) return { sent: false, reason: 'no new critical or serious issue' };
  await deliver(
    deps,
    audit.userId,
    target,
    'issues.new',
    {
      event: 'issues.new',
      source: 'site-audit',
      domain: audit.domain,
      auditId: audit.id,
      scanId: null,
      completedAt: audit.completedAt ? new Date(audit.completedAt).toISOString() : null,
      issues: found,
    },
    `issues.new-${audit.id}`,
  );
  return { sent: true };
}

/**
 * After a scan of one page that is not a page of a site audit (a scan a member started, or one
 * page's rescan): posts its new critical and serious issues to the organisation's webhook when
 * the scan is of a domain the organisation monitors (ADR 0041). New is against the
 * organisation's previous completed scan of the same page, as the report's "new" marks and the
 * scan alert count; a page's first scan, and issues the team marked false positive, send nothing.
 */
export async function notifyScanIssues(
  deps: TrackerDeps,
  scanId: string,
): Promise<{ sent: boolean; reason?: string }> {
  const scan = await scanStore.findScanOutcome(deps.db, scanId);
  if (scan && (await isSiteAuditPage(deps.db, scan.id))) {
    return { sent: false, reason: 'a page of a site audit, which notifies as a whole' };
  }
  if (!scan?.userId || scan.status !== 'completed' || !scan.completedAt) {
    return { sent: false, reason: "not a completed scan of an organisation's" };
  }
  if (!(await findOwnMonitored(deps.db, scan.userId, scan.domain))) {
    return { sent: false, reason: 'domain not monitored' };
  }
  const target = await webhookTarget(deps, scan.userId);
  if (!target) return { sent: false, reason: 'no webhook set' };
  const [compared, falsePositives] = await Promise.all([
    scanStore.issuesNewSincePreviousPageScan(deps.db, {
      ...scan,
      userId: scan.userId,
      completedAt: scan.completedAt,
    }),
    falsePositivesOfScan(deps.db, scan.id),
  ]);
  if (!compared) return { sent: false, reason: 'first scan of the page' };
  const found = compared.issues
    .filter(
      (issue) =>
        issue.kind === 'violation' &&
        webhookImpacts.has(issue.impact) &&
        !falsePositives.has(issue.issueKey),
    )
    .map((issue) => ({
      id: issue.issueKey,
      title: issueTitle(issue),
      impact: issue.impact,
      wcag: issue.wcag,
      pageUrl: scan.url,
      selector: issue.selector,
      reportUrl: `${deps.publicUrl}/report/${scan.id}`,
    }));
  if (found.length === 0) return { sent: false, reason: 'no new critical or serious issue' };
  await deliver(
    deps,
    scan.userId,
    target,
    'issues.new',
    {
      event: 'issues.new',
      source: 'scan',
      domain: scan.domain,
      auditId: null,
      scanId: scan.id,
      completedAt: scan.completedAt.toISOString(),
      issues: found,
    },
    `issues.new-scan-${scan.id}`,
  );
  return { sent: true };
}
