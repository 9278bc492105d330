import type PgBoss from 'pg-boss';
import {
  issueFingerprint,
  scanNowIntervalMinutes,
  type MonitoringSettings,
  type ScanNowResponse,
  type SiteAuditDetails,
  type SiteAuditList,
  type UpdateMonitoringRequest,
} from '#contract/index.js';
import type { AppDb } from '#db/client.js';
import {
  findMonitoringSettings,
  listSiteAudits,
  readSiteAudit,
  saveMonitoringSettings,
  type MonitoringSettingsRow,
} from '#db/stores/site-audit-reads.js';
import { requestSiteAudit } from '#jobs/site-audit-requests.js';
import { parseExcludePattern } from '#scanner';
import { recordAudit, type AuditActor } from '../audit-log/service.js';
import { ConflictError, HttpError, InvalidError, NotFoundError } from '../http-errors.js';
import { normalizeDomain } from './domain.js';

/**
 * A monitored domain's site audits as its owner steers them (docs/scoring.md): where discovery
 * starts, which pages every audit includes or leaves out, "Scan now", and the audits' results.
 * Another account's domain is a 404, as on every domain route.
 */

export interface SiteMonitoringDeps {
  db: AppDb;
  boss: PgBoss;
  /** MONITOR_MAX_PAGES: pages one audit covers at most, pins included. */
  pageBudget: number;
}

/** "Scan now" within the hour after the last one: 429 with when the next may start. */
export class ScanNowTooSoonError extends HttpError {
  constructor(
    message: string,
    readonly retryAt: Date,
  ) {
    super(429, message);
  }
}

const notFound = () => new NotFoundError('Domain not found');

async function ownDomain(db: AppDb, userId: string, domainParam: string) {
  let domain: string;
  try {
    domain = normalizeDomain(domainParam);
  } catch {
    throw notFound();
  }
  const row = await findMonitoringSettings(db, userId, domain);
  if (!row) throw notFound();
  return row;
}

function settingsOf(row: MonitoringSettingsRow, pageBudget: number): MonitoringSettings {
  return {
    startUrl: row.startUrl,
    defaultStartUrl: `https://${row.domain}/`,
    pins: row.monitorPins,
    excludes: row.monitorExcludes,
    pageBudget,
  };
}

/** The host is the domain or one of its subdomains (www., a staging host), any port. */
function onDomain(url: URL, domain: string): boolean {
  const host = url.hostname.toLowerCase();
  return host === domain || host.endsWith(`.${domain}`);
}

/** An http(s) address of the domain, or a 400 naming the field and what is wrong. */
export function parseSiteAddress(value: string, domain: string, field: string): string {
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `https://${value}`);
  } catch {
    throw new InvalidError(`${field}: "${value.slice(0, 100)}" is not a web address.`);
  }
  if (!['http:', 'https:'].includes(url.protocol)) {
    throw new InvalidError(`${field}: only http and https addresses can be audited.`);
  }
  if (url.username || url.password) {
    throw new InvalidError(`${field}: an address may not carry a user name or password.`);
  }
  if (!onDomain(url, domain)) {
    throw new InvalidError(`${field}: ${url.hostname} is not ${domain} or one of its subdomains.`);
  }
  url.hash = '';
  return url.href;
}

export async function readMonitoring(
  deps: SiteMonitoringDeps,
  userId: string,
  domainParam: string,
  limit = 20,
): Promise<SiteAuditList> {
  const row = await ownDomain(deps.db, userId, domainParam);
  return {
    audits: await listSiteAudits(deps.db, row.id, limit),
    settings: settingsOf(row, deps.pageBudget),
    scanNowAvailableAt: scanNowAvailableAt(row, new Date())?.toISOString() ?? null,
  };
}

function scanNowAvailableAt(row: MonitoringSettingsRow, now: Date): Date | undefined {
  if (!row.auditRequestedAt) return undefined;
  const next = new Date(row.auditRequestedAt.getTime() + scanNowIntervalMinutes * 60_000);
  return next > now ? next : undefined;
}

/**
 * `PATCH /api/domains/{domain}/monitoring`: the start address (empty or null: the default),
 * pinned pages (on the domain, deduplicated, fewer than the budget) and excluded patterns
 * (regular expressions, as pa11y-ci's --sitemap-exclude). The next audit uses them.
 */
export async function updateMonitoring(
  deps: SiteMonitoringDeps,
  userId: string,
  domainParam: string,
  input: UpdateMonitoringRequest,
  actor: AuditActor,
): Promise<MonitoringSettings> {
  const row = await ownDomain(deps.db, userId, domainParam);
  const change: Parameters<typeof saveMonitoringSettings>[2] = {};
  if (input.startUrl !== undefined) {
    const value = input.startUrl?.trim() ?? '';
    change.startUrl = value === '' ? null : parseSiteAddress(value, row.domain, 'startUrl');
  }
  if (input.pins !== undefined) {
    const pins = [
      ...new Set(
        input.pins.map((pin, index) => parseSiteAddress(pin, row.domain, `pins[${index}]`)),
      ),
    ];
    if (pins.length >= deps.pageBudget) {
      throw new InvalidError(
        `pins: at most ${deps.pageBudget - 1} pinned pages, so the start page fits the budget of ${deps.pageBudget} pages.`,
      );
    }
    change.monitorPins = pins;
  }
  if (input.excludes !== undefined) {
    const excludes = [...new Set(input.excludes.map((pattern) => pattern.trim()))];
    excludes.forEach((pattern, index) => {
      try {
        parseExcludePattern(pattern);
      } catch (error) {
        throw new InvalidError(
          `excludes[${index}]: "${pattern.slice(0, 100)}" is not a valid pattern (${error instanceof Error ? error.message : 'invalid'}).`,
        );
      }
    });
    change.monitorExcludes = excludes;
  }
  if (Object.keys(change).length > 0) {
    await deps.db.transaction(async (tx) => {
      await saveMonitoringSettings(tx, row.id, change);
      await recordAudit(
        tx,
        actor,
        'domain.monitoring_changed',
        {
          type: 'domain',
          id: row.domain,
        },
        change,
      );
    });
  }
  return settingsOf({ ...row, ...change }, deps.pageBudget);
}

/** `POST /api/domains/{domain}/audits`: "Scan now". */
export async function scanNow(
  deps: SiteMonitoringDeps,
  userId: string,
  domainParam: string,
  now = new Date(),
): Promise<ScanNowResponse> {
  const row = await ownDomain(deps.db, userId, domainParam);
  const outcome = await requestSiteAudit(deps.db, deps.boss, row.id, 'scan-now', now);
  if (outcome.started) {
    return { message: `A site audit of ${row.domain} started.`, auditId: outcome.auditId };
  }
  if (outcome.reason === 'too-soon') {
    throw new ScanNowTooSoonError(outcome.message, outcome.retryAt ?? now);
  }
  // Already running, or the domain is not monitored: both conflict with the domain's state.
  throw new ConflictError(outcome.message);
}

export async function readAudit(
  deps: SiteMonitoringDeps,
  userId: string,
  domainParam: string,
  auditId: string,
): Promise<SiteAuditDetails> {
  const row = await ownDomain(deps.db, userId, domainParam);
  const audit = await readSiteAudit(deps.db, row.id, auditId, issueFingerprint);
  if (!audit) throw new NotFoundError('Site audit not found');
  return audit;
}
