import { Square } from 'lucide-react';
import { useRef } from 'react';
import { maxAuditPages } from '#contract/audit.js';
import type { RawScanResult } from '#contract/raw-result.js';
import { usePageTitle } from '../../../lib/page-title';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { track } from '../../../lib/analytics';
import { useFocusRequest } from '../hooks/use-focus-request';
import { usePageChooser } from '../hooks/use-page-chooser';
import { usePageSequence, type SequencePage } from '../hooks/use-page-sequence';
import { StatusBadge } from './badges';
import { DiscoverForm } from './discover-form';
import { PageChooser } from './page-chooser';

const rules = { lockHomepage: true };

/**
 * Spec §2 smart discovery: discover a site's pages (the homepage always stays in), adjust the
 * list, then scan the chosen pages one after the other with a raw scan each. Discovery lists up
 * to 20 pages; the first ten (homepage first, by rank) start selected, the per-run limit.
 */
export function SmartDiscoveryPage() {
  usePageTitle('Smart discovery');
  const sequence = usePageSequence();
  const chooser = usePageChooser({
    rules,
    feature: 'smart_discovery',
    failure: () => 'Failed to discover pages. Please check the URL and try again.',
    preselect: maxAuditPages,
    foundNote: (count) => `Found ${count} pages.`,
    onDiscoverStart: sequence.reset,
  });
  const { discovery, selected, problem } = chooser;

  const resultsHeadingRef = useRef<HTMLHeadingElement>(null);
  const focusLater = useFocusRequest();

  const onScan = () => {
    if (problem || sequence.running) return;
    track('feature_usage', { feature: 'smart_discovery', action: 'scan', pages: selected.length });
    focusLater(() => resultsHeadingRef.current);
    void sequence.start(selected);
  };

  const current = sequence.pages.findIndex((page) => page.status === 'scanning');

  return (
    <div className="mx-auto max-w-5xl px-4 py-12">
      <h1 className="text-3xl font-bold">Smart discovery</h1>
      <p className="mt-2 text-slate-700">
        Find the key pages of a site from its homepage, adjust the list, and scan each page with
        axe-core, Pa11y and IBM Equal Access, one after the other.
      </p>
      <Card className="mt-8">
        <DiscoverForm {...chooser.form} disabled={sequence.running} />
      </Card>
      {discovery && (
        <Card className="mt-6 grid gap-4">
          <PageChooser
            chooser={chooser}
            homeUrl={discovery.homeUrl}
            heading="Pages to scan"
            disabled={sequence.running}
            summary={
              chooser.pages.length === 1
                ? 'Only homepage found. Consider adding more pages manually for comprehensive scanning.'
                : `Ready to scan ${selected.length} ${selected.length === 1 ? 'page' : 'pages'}`
            }
          >
            <div className="flex flex-wrap gap-2">
              <Button type="button" onClick={onScan} disabled={!!problem || sequence.running}>
                {sequence.running ? 'Scanning…' : 'Scan Selected Pages'}
              </Button>
              {sequence.running && (
                <Button
                  type="button"
                  variant="outline"
                  onClick={sequence.stop}
                  disabled={sequence.stopping}
                >
                  <Square aria-hidden="true" className="h-4 w-4" />
                  {sequence.stopping ? 'Stopping after this page…' : 'Stop after this page'}
                </Button>
              )}
            </div>
          </PageChooser>
        </Card>
      )}
      {sequence.pages.length > 0 && (
        <section aria-labelledby="sequence-heading" className="mt-10 grid gap-4">
          <h2
            id="sequence-heading"
            ref={resultsHeadingRef}
            tabIndex={-1}
            className="text-2xl font-bold focus:outline-none"
          >
            Scan results
          </h2>
          <p role="status" className="text-sm font-medium">
            {sequenceSentence(sequence.pages, current, sequence.running)}
          </p>
          <ol className="grid gap-3" aria-label="Scan results by page">
            {sequence.pages.map((page, index) => (
              <li key={`${index}-${page.url}`}>
                <SequenceResult page={page} />
              </li>
            ))}
          </ol>
        </section>
      )}
    </div>
  );
}

function sequenceSentence(pages: readonly SequencePage[], current: number, running: boolean) {
  const done = pages.filter((page) => page.status === 'complete' || page.status === 'error');
  if (running && current >= 0) {
    return `Scanning page ${current + 1} of ${pages.length}: ${pages[current]!.url}`;
  }
  if (running) return `Scanned ${done.length} of ${pages.length} pages.`;
  const stopped = pages.filter((page) => page.status === 'stopped').length;
  return `Scan finished: ${done.length} of ${pages.length} pages scanned${stopped ? `, ${stopped} not scanned after stopping` : ''}.`;
}

function SequenceResult({ page }: { page: SequencePage }) {
  return (
    <Card className="grid gap-2 p-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 className="font-semibold break-all">{page.url}</h3>
        <StatusBadge status={page.status} />
      </div>
      {page.status === 'error' && <p className="text-sm text-bad">{page.error}</p>}
      {page.result && <RawCounts result={page.result} />}
    </Card>
  );
}

/** What smart discovery shows per page (spec §2): each engine's counts and the total time. */
function RawCounts({ result }: { result: RawScanResult }) {
  const pa11y = result.pa11yRaw.issues.length;
  const axe = result.axeRaw.violations.length;
  return (
    <ul className="grid gap-1 text-sm sm:grid-cols-4">
      <li className={result.pa11yRaw.error ? 'text-bad' : undefined}>
        Pa11y: {result.pa11yRaw.error ?? `${pa11y} ${pa11y === 1 ? 'issue' : 'issues'}`}
      </li>
      <li className={result.axeRaw.error ? 'text-bad' : undefined}>
        axe: {result.axeRaw.error ?? `${axe} ${axe === 1 ? 'violation' : 'violations'}`}
      </li>
      <li className={result.ibmRaw.error ? 'text-bad' : undefined}>
        IBM: {result.ibmRaw.error ?? 'Scan completed'}
      </li>
      <li>Total processing time: {Math.round(result.meta.processingTimes.total)} ms</li>
    </ul>
  );
}
