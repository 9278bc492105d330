import { ArrowLeft } from 'lucide-react';
import { useRef, useState, type Ref } from 'react';
import { usePageTitle } from '../../../lib/page-title';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { track } from '../../../lib/analytics';
import { messageOf } from '../../../lib/api-client';
import { useAuditRun } from '../hooks/use-audit-run';
import { useFocusRequest } from '../hooks/use-focus-request';
import { usePageChooser } from '../hooks/use-page-chooser';
import { progressSentence } from '../page-runs';
import { ArchiveLink, AverageTimes, PageProgressList, SummaryFigures } from './audit-overview';
import { AuditSummaryTable } from './audit-summary-table';
import { DetailedAnalysis } from './detailed-analysis';
import { SiteResults } from './site-results';
import { DiscoverForm } from './discover-form';
import { PageChooser } from './page-chooser';

const rules = { lockHomepage: false };

/** 'Failed to discover pages', with the server's reason when it gave one (spec §8). */
function discoveryFailure(error: unknown, fallback: string): string {
  const reason = messageOf(error, '');
  if (!reason) return fallback;
  return reason.startsWith('Failed to discover pages') ? reason : `${fallback}: ${reason}`;
}

const fileStemOf = (domain: string | undefined, url: string | undefined) =>
  (domain ?? (url ? new URL(url).hostname : 'site')).replace(/[^a-z0-9.-]+/gi, '-');

/**
 * Spec §2 smart scan: discover a site's pages, choose up to ten, scan them together as one
 * audit, then read the summary, tables, analysis, exports, archive and each page's results.
 */
export function SmartScanPage() {
  usePageTitle('Smart scan');
  const chooser = usePageChooser({
    rules,
    feature: 'smart_scan',
    failure: (error) => discoveryFailure(error, 'Failed to discover pages'),
    foundNote: (count) => `Found ${count} pages to choose from.`,
  });
  const { discovery, selected, problem } = chooser;
  const [step, setStep] = useState<'discovery' | 'results'>('discovery');
  const run = useAuditRun('smart-scan', 'Failed to perform smart scan');

  const homeInputRef = useRef<HTMLInputElement>(null);
  const resultsHeadingRef = useRef<HTMLHeadingElement>(null);
  const focusLater = useFocusRequest();

  const onStart = () => {
    if (problem) return;
    track('feature_usage', { feature: 'smart_scan', action: 'start_scan', pages: selected.length });
    run.start(selected);
    setStep('results');
    focusLater(() => resultsHeadingRef.current);
  };

  const backToDiscovery = () => {
    run.reset();
    chooser.clear();
    setStep('discovery');
    focusLater(() => homeInputRef.current);
  };

  return (
    <div className="mx-auto max-w-5xl px-4 py-12">
      <h1 className="text-3xl font-bold">Smart scan</h1>
      <p className="mt-2 text-slate-700">
        Find the pages of a site that matter most, choose up to 10 and scan them with all three
        engines at once.
      </p>
      {step === 'discovery' ? (
        <div className="mt-8 grid gap-6">
          <Card>
            <h2 className="mb-4 text-xl font-semibold">Step 1: Page discovery</h2>
            <DiscoverForm {...chooser.form} inputRef={homeInputRef} />
          </Card>
          {discovery && (
            <Card className="grid gap-4">
              <PageChooser
                chooser={chooser}
                homeUrl={discovery.homeUrl}
                heading="Discovered pages"
                summary={
                  <>
                    Discovery found {discovery.totalLinksFound} total links in{' '}
                    {discovery.processingTime} ms and lists the {discovery.discovered.length} most
                    relevant pages of {new URL(discovery.homeUrl).host}.
                  </>
                }
              >
                <Button type="button" onClick={onStart} disabled={!!problem}>
                  Start Multi-Page Scan
                </Button>
              </PageChooser>
            </Card>
          )}
        </div>
      ) : (
        <SmartScanResults run={run} onBack={backToDiscovery} headingRef={resultsHeadingRef} />
      )}
    </div>
  );
}

function SmartScanResults({
  run,
  onBack,
  headingRef,
}: {
  run: ReturnType<typeof useAuditRun>;
  onBack: () => void;
  headingRef: Ref<HTMLHeadingElement>;
}) {
  const summary = run.data?.summary;
  const fileStem = fileStemOf(summary?.archive?.domain, run.urls[0]);
  return (
    <div className="mt-8 grid gap-8">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 ref={headingRef} tabIndex={-1} className="text-2xl font-bold focus:outline-none">
          Step 2: Scan results
        </h2>
        <Button type="button" variant="outline" onClick={onBack}>
          <ArrowLeft aria-hidden="true" className="h-4 w-4" />
          Back to Discovery
        </Button>
      </div>
      <p role="status" className="text-sm font-medium">
        {run.isPending
          ? `Scanning ${run.urls.length} ${run.urls.length === 1 ? 'page' : 'pages'}: ${progressSentence(run.runs)}`
          : progressSentence(run.runs)}
      </p>
      {run.failure && (
        <p role="alert" className="font-medium text-bad">
          {run.failure}
        </p>
      )}
      {summary && run.data && (
        <>
          <SiteResults results={run.data.results} />
          <section aria-labelledby="smart-summary-heading" className="grid gap-3">
            <h2 id="smart-summary-heading" className="text-2xl font-bold">
              What each engine reported
            </h2>
            <p className="text-sm text-slate-700">
              Raw counts before merging: one problem found by two engines counts twice here and once
              in the site results above.
            </p>
            <SummaryFigures summary={summary} />
            <AverageTimes summary={summary} />
          </section>
          <AuditSummaryTable table={summary.auditSummaryTable} fileStem={fileStem} />
          <DetailedAnalysis analysis={summary.detailedAnalysis} fileStem={fileStem} />
          {summary.archive && (
            <section aria-labelledby="archive-heading" className="grid gap-2">
              <h2 id="archive-heading" className="text-2xl font-bold">
                Raw data archive
              </h2>
              <p className="text-sm text-slate-700">
                Every page&apos;s raw engine output and the reports above, in one ZIP file.
              </p>
              <ArchiveLink archive={summary.archive} />
            </section>
          )}
        </>
      )}
      <section aria-labelledby="pages-heading" className="grid gap-3">
        <h2 id="pages-heading" className="text-2xl font-bold">
          Pages
        </h2>
        <PageProgressList runs={run.runs} label="Scan progress by page" />
      </section>
    </div>
  );
}
