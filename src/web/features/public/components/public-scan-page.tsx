import { Link, useParams } from 'react-router';
import type { EngineId } from '#contract/finding.js';
import {
  engineList,
  enginesInWords,
  formatDate,
  formatScore,
  wcagStandard,
} from '#contract/vocabulary.js';
import { paths } from '../../../lib/paths';
import { usePageTitle } from '../../../lib/page-title';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Spinner } from '../../../components/ui/spinner';
import { IssueExplorer } from '../../../components/issues/issue-explorer';
import { ScoreLabelChip } from '../../../components/score/score-label';
import { usePublicReport } from '../api/get-public-report';
import { usePublicScan } from '../api/get-public-scan';
import { NotFoundMessage } from './not-found-message';
import { KeyFigures } from './key-figures';

/** The public audit of one scan (spec §2 /public/audit/{scanId}). */
export function PublicScanPage() {
  const { scanId = '' } = useParams();
  const scan = usePublicScan(scanId);
  const report = usePublicReport(scanId, scan.isSuccess);
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
  // The engines that ran on this scan (its per-engine counts); the defaults until the report loads.
  const byEngine = report.data?.scan.summary?.byEngine;
  const ran = byEngine ? (Object.keys(byEngine) as EngineId[]) : undefined;
  return (
    <div className="mx-auto max-w-4xl px-4 py-12">
      <div className="flex flex-wrap items-center gap-3">
        <h1 className="text-3xl font-bold break-all">{data.domain}</h1>
        <span className="rounded-full border border-slate-500 px-3 py-1 text-xs font-semibold text-slate-800">
          Automated scan
        </span>
      </div>
      <p className="mt-2 break-all text-slate-700">{data.url}</p>
      <KeyFigures
        figures={[
          ['Score', formatScore(data.accessibilityScore)],
          ['Violations', data.totalIssues],
          ['Scanned', formatDate(data.completedAt)],
        ]}
      />
      <p className="mt-6 text-sm font-semibold">{wcagStandard.short} Standards</p>
      <ScoreLabelChip score={data.accessibilityScore} className="mt-2" />
      <p className="mt-4 text-sm text-slate-700">
        {sentence(enginesInWords(ran))} ({engineList(ran)}) tested this page in a browser. Automated
        testing finds many problems, not all: this is a measurement, not a certification.
      </p>
      {report.data && (
        <section aria-labelledby="public-issues-heading" className="mt-10">
          <h2 id="public-issues-heading" className="text-2xl font-bold">
            Issues found
          </h2>
          <div className="mt-4">
            <IssueExplorer
              idPrefix="public-issues"
              issues={report.data.issues}
              screenshotUrl={report.data.scan.screenshots.at(-1) ?? null}
            />
          </div>
        </section>
      )}
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
          <Link to={paths.about.getHref()} aria-label="Learn more about Conformly">
            Learn More
          </Link>
        </Button>
      </div>
    </div>
  );
}

const sentence = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
