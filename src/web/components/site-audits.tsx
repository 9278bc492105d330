import { RefreshCw } from 'lucide-react';
import { useId } from 'react';
import type { SiteAuditList, SiteAuditSummary } from '#contract/site-monitoring.js';
import { useScanNow } from '../api/domains/site-audits';
import { messageOf } from '../lib/api-client';
import { toast } from '../lib/toast-store';
import { Button } from './ui/button';

/** What the Domains page and a domain's page both say of its site audits, and "Scan now". */

export const isRunning = (audit: SiteAuditSummary | undefined) =>
  audit?.status === 'pending' || audit?.status === 'running';

/**
 * The domain's latest monitoring audit: what "Scan now" and the progress follow (an uploaded CI
 * run arrives finished and never blocks one).
 */
export const latestMonitoringAudit = (audits: readonly SiteAuditSummary[]) =>
  audits.find((audit) => audit.origin === 'monitoring');

/** A commit as people quote it: its first seven characters. */
export const shortCommit = (commit: string) => commit.slice(0, 7);

/** "CI run: main, a1b2c3d, pull request #12" or "weekly" / "domain added" / "Scan now". */
export function auditSourceText(audit: SiteAuditSummary): string {
  if (audit.origin !== 'ci') return triggerText[audit.trigger ?? 'schedule'];
  const ci = audit.ciRun;
  const parts = [
    ci?.branch ?? null,
    ci?.commit ? `commit ${shortCommit(ci.commit)}` : null,
    ci?.pullRequest ? `pull request #${ci.pullRequest}` : null,
  ].filter((part): part is string => part !== null);
  return parts.length > 0 ? `CI run: ${parts.join(', ')}` : 'CI run';
}

/** What the audit's changes are counted against, as a sentence's opening. */
export function comparedText(audit: SiteAuditSummary): string {
  const against = audit.comparedWith;
  if (audit.origin !== 'ci' || !against) return 'Since the previous audit';
  if (against.origin === 'monitoring') return 'Against the last monitoring audit';
  const commit = against.commit ? ` (${shortCommit(against.commit)})` : '';
  return `Against the last CI run of ${against.branch ?? 'its branch'}${commit}`;
}

/** A CI run's build page, opened from its label. */
export function BuildLink({ audit }: { audit: SiteAuditSummary }) {
  const url = audit.ciRun?.buildUrl;
  if (!url) return null;
  return (
    <a href={url} className="text-brand-700 underline" target="_blank" rel="noreferrer">
      build<span className="sr-only"> of the CI run (opens in a new tab)</span>
    </a>
  );
}

export const triggerText = {
  schedule: 'weekly',
  added: 'domain added',
  'scan-now': 'Scan now',
} as const;

const time = (iso: string) =>
  new Intl.DateTimeFormat(undefined, {
    hour: '2-digit',
    minute: '2-digit',
    timeZoneName: 'short',
  }).format(new Date(iso));

/** Why "Scan now" cannot start an audit at the moment, or undefined when it can. */
export function scanNowBlocked(data: SiteAuditList): string | undefined {
  if (isRunning(latestMonitoringAudit(data.audits))) return 'An audit of this site is running.';
  if (data.scanNowAvailableAt) {
    return `One audit can be requested per hour; the next from ${time(data.scanNowAvailableAt)}.`;
  }
  return undefined;
}

/** "Scan now" with the reason it is unavailable tied to it. */
export function ScanNowButton({ domain, data }: { domain: string; data: SiteAuditList }) {
  const scanNow = useScanNow(domain);
  const reasonId = useId();
  const blocked = scanNowBlocked(data);
  const start = async () => {
    try {
      const started = await scanNow.mutateAsync();
      toast({ title: 'Site audit started', description: started.message, variant: 'success' });
    } catch (error) {
      toast({
        title: 'No audit started',
        description: messageOf(error, 'The audit could not be started.'),
        variant: 'destructive',
      });
    }
  };
  return (
    <div className="flex flex-wrap items-center gap-3">
      <Button
        type="button"
        variant="outline"
        onClick={() => void start()}
        disabled={blocked !== undefined || scanNow.isPending}
        aria-describedby={blocked ? reasonId : undefined}
      >
        <RefreshCw aria-hidden="true" className="mr-2 h-4 w-4" />
        {scanNow.isPending ? 'Starting…' : 'Scan now'}
        <span className="sr-only"> {domain}</span>
      </Button>
      {blocked && (
        <span id={reasonId} className="text-sm text-slate-700">
          {blocked}
        </span>
      )}
    </div>
  );
}

export function pagesText(audit: SiteAuditSummary): string {
  const parts = [`${audit.completedPages} of ${audit.totalPages} pages audited`];
  if (audit.failedPages > 0) parts.push(`${audit.failedPages} could not be scanned`);
  if (audit.reusedPages > 0) parts.push(`${audit.reusedPages} unchanged (findings kept)`);
  return parts.join(' · ');
}
