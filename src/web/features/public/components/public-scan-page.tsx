import { BadgeCheck } from 'lucide-react';
import { Link, useParams } from 'react-router';
import { paths } from '../../../lib/paths';
import { usePageTitle } from '../../../lib/page-title';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Spinner } from '../../../components/ui/spinner';
import { usePublicScan } from '../api/get-public-scan';
import { complianceBand, ddMMyyyy, toneClass } from '../format';
import { NotFoundMessage } from './not-found-message';
import { KeyFigures } from './key-figures';

/** The public audit of one scan (spec §2 /public/audit/{scanId}). */
export function PublicScanPage() {
  const { scanId = '' } = useParams();
  const scan = usePublicScan(scanId);
  usePageTitle(scan.data ? `Accessibility audit of ${scan.data.domain}` : 'Accessibility audit');
  if (scan.isPending) return <Spinner label="Loading the audit" className="min-h-[50vh]" />;
  if (scan.isError) {
    return (
      <NotFoundMessage title="Audit Not Found">
        <p>This accessibility audit is not publicly available or does not exist.</p>
      </NotFoundMessage>
    );
  }
  const data = scan.data;
  const band = complianceBand(data.accessibilityScore);
  return (
    <div className="mx-auto max-w-3xl px-4 py-12">
      <div className="flex flex-wrap items-center gap-3">
        <h1 className="text-3xl font-bold break-all">{data.domain}</h1>
        <span className="inline-flex items-center gap-1 rounded-full bg-brand-600 px-3 py-1 text-xs font-bold text-white">
          <BadgeCheck aria-hidden="true" className="h-4 w-4" />
          AUDITED
        </span>
      </div>
      <p className="mt-2 break-all text-slate-700">{data.url}</p>
      <KeyFigures
        figures={[
          ['Score', data.accessibilityScore === null ? '–' : `${data.accessibilityScore}%`],
          ['Issues', data.totalIssues],
          ['Audit date', ddMMyyyy(data.completedAt)],
        ]}
      />
      <p className="mt-6 text-sm font-semibold">WCAG 2.1 AA Standards</p>
      <span
        className={`mt-2 inline-block rounded-full border px-3 py-1 text-sm font-semibold ${toneClass[band.tone]}`}
      >
        {band.label}
      </span>
      <Card className="mt-8">
        <h2 className="font-semibold">Show this audit on your site</h2>
        <p className="mt-2 text-sm text-slate-700">
          Embed the Conformly badge so visitors can open this audit and see your current score.
        </p>
      </Card>
      <div className="mt-8 flex flex-wrap gap-3">
        <Button asChild>
          <Link to={paths.home.getHref()}>Start Free Audit</Link>
        </Button>
        <Button asChild variant="outline">
          <Link to={paths.about.getHref()}>Learn More</Link>
        </Button>
      </div>
    </div>
  );
}
