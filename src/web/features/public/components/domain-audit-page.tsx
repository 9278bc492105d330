import { Link, useParams } from 'react-router';
import { formatDate, formatScore, wcagStandard } from '#contract/vocabulary.js';
import { paths } from '../../../lib/paths';
import { usePageTitle } from '../../../lib/page-title';
import { Card } from '../../../components/ui/card';
import { Spinner } from '../../../components/ui/spinner';
import { ScoreLabelChip } from '../../../components/score/score-label';
import { useDomainAudit } from '../api/get-domain-audit';
import { NotFoundMessage } from './not-found-message';
import { KeyFigures } from './key-figures';
import { scoreBasis } from '../score-basis';

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
  const basis = scoreBasis(data);
  // The label is the site score's band, as on every screen (ADR 0013); that the site is
  // monitored is a fact of every page that exists here, not a grade.
  return (
    <div className="mx-auto max-w-3xl px-4 py-12">
      <p className="text-sm font-semibold text-brand-600">Standard: {wcagStandard.short}</p>
      <h1 className="mt-1 text-3xl font-bold break-all">{data.domain}</h1>
      <div className="mt-4 flex flex-wrap items-center gap-3">
        <ScoreLabelChip score={data.accessibilityScore} pending="First scan pending" />
        <span className="text-sm font-semibold text-slate-800">Under Active Monitoring</span>
      </div>
      <KeyFigures
        figures={[
          [basis.label, formatScore(data.accessibilityScore)],
          ['Open issues', data.totalIssues],
          ['Last scanned', formatDate(data.lastScanned)],
        ]}
      />
      <p className="mt-4 text-sm text-slate-700">{basis.sentence}</p>
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
