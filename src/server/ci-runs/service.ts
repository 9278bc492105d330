import type { z } from 'zod';
import type { CiRunResponse, CiRunUpload } from '#contract/ci-run.js';
import { compareIssues, issueFingerprint, type EngineId } from '#contract/index.js';
import type { AppDb } from '#db/client.js';
import { findOwnMonitored } from '#db/stores/domains.js';
import { readSiteAudit } from '#db/stores/site-audit-reads.js';
import {
  findLatestBranchRun,
  findLatestMonitoringAudit,
  findPreviousPage,
  finishCiRun,
  insertCiRun,
  listIssueKeys,
  savePageChanges,
  type ComparisonAudit,
  type NewCiRunPage,
} from '#db/stores/site-audits.js';
import { pageIdentity } from '#scanner';
import { InvalidError, NotFoundError } from '../http-errors.js';
import { domainOf, normalizeDomain } from '../domains/domain.js';

/**
 * CI uploads: a CI job's `conformly scan|crawl|ci --upload` sends its results (the CLI's JSON)
 * with the commit, branch, pull request and build it came from; they are stored as a site audit
 * of the organisation's monitored domain (origin `ci`), so the run shows in the domain's history
 * beside the monitoring audits, with what changed against the run it is compared with:
 *
 * - a pull request's run: the last run of the branch it merges into (its base branch when the CI
 *   says, else `main` or `master`), pushed rather than proposed;
 * - any other run: the last run of the same branch;
 * - either, when there is no such run: the domain's last monitoring audit.
 *
 * New and fixed issues are counted by fingerprint (contract/issue-fingerprint.ts), page by page,
 * as a monitoring audit counts them.
 */

export interface CiRunDeps {
  db: AppDb;
  /** PUBLIC_URL: the dashboard address the answer points at. */
  publicUrl: string;
}

export type CiRunInput = z.output<typeof CiRunUpload>;

/** The branches a pull request's run is compared with when the CI does not name its base. */
export const defaultMainBranches = ['main', 'master'] as const;

/** The host is the domain or one of its subdomains (www., staging.), any port. */
const onDomain = (host: string, domain: string) => host === domain || host.endsWith(`.${domain}`);

/** The domain and its parent domains, longest first: a.b.example.com, b.example.com, example.com. */
function candidateDomains(host: string): string[] {
  const labels = host.split('.');
  const candidates: string[] = [];
  for (let start = 0; start < labels.length - 1; start += 1) {
    candidates.push(labels.slice(start).join('.'));
  }
  return candidates;
}

const localHint =
  'For a run against a local or preview server, name the domain its pages stand for with --upload-domain (or CONFORMLY_DOMAIN).';

/** The organisation's monitored domain the run belongs to, or a 404 saying which is missing. */
async function domainOfRun(db: AppDb, organisationId: string, input: CiRunInput) {
  if (input.domain !== undefined) {
    const domain = normalizeDomain(input.domain);
    const row = await findOwnMonitored(db, organisationId, domain);
    if (!row) {
      throw new NotFoundError(
        `Your organisation does not monitor ${domain}: add it on the Domains page first.`,
      );
    }
    return row;
  }
  const host = domainOf(new URL(input.results[0]!.url));
  for (const candidate of candidateDomains(host)) {
    const row = await findOwnMonitored(db, organisationId, candidate);
    if (row) return row;
  }
  throw new NotFoundError(
    `Your organisation does not monitor ${host}: add it on the Domains page first. ${localHint}`,
  );
}

/**
 * Where the page sits within the domain's site: its own address when it is on the domain,
 * else (a local or preview server) the same path and query on the domain.
 */
function addressInSite(url: string, domain: string, named: boolean): string {
  const parsed = new URL(url);
  if (onDomain(domainOf(parsed), domain)) return parsed.href;
  if (!named) {
    throw new InvalidError(
      `results: ${parsed.origin} is not ${domain} or one of its subdomains; one run uploads the pages of one site. ${localHint}`,
    );
  }
  return new URL(`${parsed.pathname}${parsed.search}`, `https://${domain}`).href;
}

/** The audit this run is compared with (see the module comment); undefined for none. */
async function comparisonFor(
  db: AppDb,
  domainId: string,
  ci: CiInfo,
): Promise<ComparisonAudit | undefined> {
  let branches: string[] = [];
  if (ci.pullRequest !== null) {
    branches = ci.baseBranch ? [ci.baseBranch] : [...defaultMainBranches];
  } else if (ci.branch) {
    branches = [ci.branch];
  }
  return (
    (await findLatestBranchRun(db, domainId, branches)) ??
    (await findLatestMonitoringAudit(db, domainId))
  );
}

interface CiInfo {
  provider: CiRunInput['ci']['provider'];
  commit: string | null;
  branch: string | null;
  baseBranch: string | null;
  pullRequest: number | null;
  buildUrl: string | null;
}

function ciInfoOf(input: CiRunInput): CiInfo {
  const { ci } = input;
  return {
    provider: ci.provider,
    commit: ci.commit?.toLowerCase() ?? null,
    branch: ci.branch ?? null,
    baseBranch: ci.baseBranch ?? null,
    pullRequest: ci.pullRequest ?? null,
    buildUrl: ci.buildUrl ?? null,
  };
}

const sameVersions = (a: unknown, b: Partial<Record<EngineId, string>>) => {
  const left = (a ?? {}) as Record<string, string>;
  const keys = new Set([...Object.keys(left), ...Object.keys(b)]);
  for (const key of keys) if (left[key] !== b[key as EngineId]) return false;
  return true;
};

/** `POST /api/ci-runs`: stores the run and says where it landed and what changed. */
export async function uploadCiRun(
  deps: CiRunDeps,
  organisationId: string,
  input: CiRunInput,
): Promise<CiRunResponse> {
  const { db } = deps;
  const domain = await domainOfRun(db, organisationId, input);
  const named = input.domain !== undefined;
  const pages: NewCiRunPage[] = input.results.map((result) => {
    const address = addressInSite(result.url, domain.domain, named);
    let final = address;
    try {
      final = addressInSite(result.finalUrl, domain.domain, true);
    } catch {
      // A final address that is no web address: the page is known by the one scanned.
    }
    return { url: result.url, identity: pageIdentity(final), result };
  });
  const ci = ciInfoOf(input);
  const previous = await comparisonFor(db, domain.id, ci);

  const auditId = await db.transaction(async (tx) => {
    const stored = await insertCiRun(tx, {
      domainId: domain.id,
      domain: domain.domain,
      userId: organisationId,
      ciRun: { ...ci, tool: input.tool ?? null },
      previousAuditId: previous?.id ?? null,
      pages,
    });
    if (previous) {
      for (const [index, pageId] of stored.pageIds.entries()) {
        const page = pages[index]!;
        const before = await findPreviousPage(tx, previous.id, page.identity);
        const fingerprints = async (id: string) =>
          (await listIssueKeys(tx, id)).map((issue) => issueFingerprint(issue));
        const changes = compareIssues(
          before ? await fingerprints(before.id) : [],
          await fingerprints(pageId),
          {
            scannerChanged: before
              ? !sameVersions(before.engineVersions, page.result.engineVersions)
              : false,
            // The CLI's JSON carries no rendering hash: without both, the page may have changed.
            pageChanged:
              !before || !page.result.renderHash || before.renderHash !== page.result.renderHash,
          },
        );
        await savePageChanges(tx, pageId, { ...changes, previousPageId: before?.id ?? null });
      }
    }
    await finishCiRun(tx, stored.auditId);
    return stored.auditId;
  });

  const audit = (await readSiteAudit(db, domain.id, auditId, issueFingerprint))!;
  const dashboardUrl = `${deps.publicUrl}/app/dashboard/domains/${encodeURIComponent(domain.domain)}`;
  return {
    auditId,
    domain: domain.domain,
    dashboardUrl,
    pages: audit.totalPages,
    score: audit.score,
    totalIssues: audit.totalIssues,
    comparedWith: audit.comparedWith,
    changes: audit.changes,
    message: runMessage(domain.domain, audit),
  };
}

/** "Stored a CI run of example.com: score 87 over 3 pages; against main (abc1234): 2 new, 1 fixed." */
function runMessage(
  domain: string,
  audit: Pick<CiRunResponse, 'score' | 'comparedWith' | 'changes'> & { totalPages: number },
): string {
  const pages = `${audit.totalPages} page${audit.totalPages === 1 ? '' : 's'}`;
  const scored = audit.score === null ? pages : `score ${audit.score} over ${pages}`;
  const against = audit.comparedWith;
  if (!against || !audit.changes) {
    return `Stored a CI run of ${domain}: ${scored}; nothing to compare it with yet.`;
  }
  const what =
    against.origin === 'ci'
      ? `the last run of ${against.branch ?? 'its branch'}${against.commit ? ` (${against.commit.slice(0, 7)})` : ''}`
      : 'the last monitoring audit';
  const { changes } = audit;
  const scannerNew =
    changes.scannerNew > 0 ? `, ${changes.scannerNew} found by updated checks` : '';
  return `Stored a CI run of ${domain}: ${scored}; against ${what}: ${changes.new} new, ${changes.fixed} fixed, ${changes.open} still open${scannerNew}.`;
}
