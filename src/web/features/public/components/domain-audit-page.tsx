import { Link, useParams } from 'react-router';
import { paths } from '../../../lib/paths';
import { usePageTitle } from '../../../lib/page-title';
import { Card } from '../../../components/ui/card';
import { Spinner } from '../../../components/ui/spinner';
import { useDomainAudit } from '../api/get-domain-audit';
import { ddMMyyyy, toneClass } from '../format';
import { NotFoundMessage } from './not-found-message';
import { KeyFigures } from './key-figures';

const auditStatus = {
  compliant: { label: 'Under Active Monitoring', tone: 'ok' },
  issues: { label: 'Issues Detected - Under Remediation', tone: 'warn' },
  // Enrolled, first scan not finished: monitoring, but nothing to call compliant or not yet.
  monitored: { label: 'Under Active Monitoring - First Scan Pending', tone: 'warn' },
} as const;

/** The public compliance page of a domain (spec §2 /audit/{domain}). */
export function DomainAuditPage() {
  const { domain = '' } = useParams();
  const audit = useDomainAudit(domain);
  usePageTitle(`Compliance monitoring of ${domain}`);
  if (audit.isPending) return <Spinner label="Loading the audit" className="min-h-[50vh]" />;
  if (audit.isError) {
    return (
      <NotFoundMessage title="Compliance Monitoring Not Found">
        <p>No active accessibility monitoring found for {domain}.</p>
        <p className="mt-2 text-sm">
          The domain may not be enrolled yet, or its monitoring may have expired.
        </p>
      </NotFoundMessage>
    );
  }
  const data = audit.data;
  const status =
    auditStatus[data.status as keyof typeof auditStatus] ??
    ({ label: 'Non-Compliant', tone: 'bad' } as const);
  return (
    <div className="mx-auto max-w-3xl px-4 py-12">
      <p className="text-sm font-semibold text-brand-600">Standard: WCAG 2.1 AA</p>
      <h1 className="mt-1 text-3xl font-bold break-all">{data.domain}</h1>
      <span
        className={`mt-4 inline-block rounded-full border px-3 py-1 text-sm font-semibold ${toneClass[status.tone]}`}
      >
        {status.label}
      </span>
      <KeyFigures
        figures={[
          ['Score', data.accessibilityScore ?? '–'],
          ['Issues', data.totalIssues],
          ['Last scanned', ddMMyyyy(data.lastScanned)],
        ]}
      />
      {data.aiSummary && (
        <Card className="mt-6">
          <h2 className="font-semibold">Summary</h2>
          <p className="mt-2 whitespace-pre-line text-slate-800">{data.aiSummary}</p>
        </Card>
      )}
      {data.scanId && (
        <p className="mt-6">
          <Link className="text-brand-600 underline" to={paths.publicAudit.getHref(data.scanId)}>
            See the latest audit
          </Link>
        </p>
      )}
    </div>
  );
}
