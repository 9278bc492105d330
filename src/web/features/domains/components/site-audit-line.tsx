import { useSiteMonitoring } from '../../../api/domains/site-audits';
import {
  auditSourceText,
  isRunning,
  latestMonitoringAudit,
  pagesText,
  ScanNowButton,
} from '../../../components/site-audits';
import { formatDate } from '../format';

/** A domain card's line on its site audits: pages covered, progress, and "Scan now". */
export function SiteAuditLine({ domain }: { domain: string }) {
  const monitoring = useSiteMonitoring(domain);
  if (!monitoring.data) return null;
  const data = monitoring.data;
  const latest = latestMonitoringAudit(data.audits);
  const finished = data.audits.find((audit) => audit.status === 'completed');
  let text = `No site audit yet; each covers up to ${data.settings.pageBudget} pages.`;
  if (latest && isRunning(latest)) {
    text =
      latest.totalPages === 0
        ? 'Site audit running: finding pages…'
        : `Site audit running: ${latest.completedPages + latest.failedPages} of ${latest.totalPages} pages done.`;
  } else if (finished) {
    const source = finished.origin === 'ci' ? ` (${auditSourceText(finished)})` : '';
    text = `Last site audit${source} ${formatDate(finished.completedAt ?? finished.createdAt)}: ${pagesText(finished)}.`;
  }
  return (
    <div className="grid gap-2 text-sm">
      <p role="status">{text}</p>
      <ScanNowButton domain={domain} data={data} />
    </div>
  );
}
