import { useState } from 'react';
import type { ScanResults } from '#contract/scan-api.js';
import { useScanProgress } from '../../../api/scans/get-scan-progress';
import { useScanResults } from '../../../api/scans/get-scan-results';
import { useStartLiveScan } from '../../../api/scans/start-live-scan';
import { usePageTitle } from '../../../lib/page-title';
import { JsonPanel } from '../../../components/json-panel';
import { Card } from '../../../components/ui/card';
import { Progress } from '../../../components/ui/progress';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../../components/ui/tabs';
import { UrlScanForm } from '../../../components/url-scan-form';
import { trackScanInitiated } from '../../../lib/analytics';
import { engineNames, stageLabels } from '../../../lib/scan-stages';
import { toast } from '../../../lib/toast-store';

const engineTabs = [
  {
    id: 'axe',
    label: 'axe',
    pick: (r: ScanResults) => r.axeResults,
    count: (r: ScanResults) => r.axeResults?.violations.length ?? 0,
  },
  {
    id: 'pa11y',
    label: 'Pa11y',
    pick: (r: ScanResults) => r.pa11yResults,
    count: (r: ScanResults) => r.pa11yResults?.issues.length ?? 0,
  },
  {
    id: 'ibm',
    label: 'IBM',
    pick: (r: ScanResults) => r.ibmResults,
    count: (r: ScanResults) => r.ibmResults?.report.results.length ?? 0,
  },
] as const;

/** Each engine's own output for one page (spec §2 raw results). */
export function RawResultsPage() {
  usePageTitle('Raw scan results');
  const [url, setUrl] = useState('https://example.com');
  const [scanId, setScanId] = useState<string>();
  const [startedAt, setStartedAt] = useState<string>();
  const start = useStartLiveScan();
  const progress = useScanProgress(scanId);
  const stage = progress.data?.stage;
  const results = useScanResults(scanId, stage === 'complete');
  const scanning =
    !!scanId &&
    !progress.isError &&
    progress.data !== null &&
    !['complete', 'error', 'aborted'].includes(stage ?? '');

  const onSubmit = async (target: string) => {
    try {
      const answer = await start.mutateAsync(target);
      trackScanInitiated(target, 'raw');
      toast({ title: 'Scan Started', description: 'Accessibility scan has begun' });
      setScanId(answer.scanId);
      setStartedAt(new Date().toISOString());
    } catch {
      toast({ title: 'Error', description: 'Failed to start scan', variant: 'destructive' });
    }
  };

  const engineErrors = Object.entries(progress.data?.engineErrors ?? {});
  return (
    <div className="mx-auto max-w-5xl px-4 py-12">
      <h1 className="text-3xl font-bold">Raw scan results</h1>
      <p className="mt-2 text-slate-700">
        What axe-core, Pa11y and IBM Equal Access each reported for one page, as they reported it.
      </p>
      <Card className="mt-8">
        <UrlScanForm
          id="raw-url"
          label="Website URL"
          value={url}
          onValueChange={setUrl}
          onSubmit={(target) => void onSubmit(target)}
          busy={scanning || start.isPending}
          submitContent={scanning ? 'Scanning…' : 'Start Scan'}
        />
        {progress.data && (
          <div className="mt-6 grid gap-2">
            <div className="flex flex-wrap items-center justify-between gap-2 text-sm">
              <p aria-live="polite" className="font-semibold">
                {stageLabels[progress.data.stage]}
                {progress.data.currentTool && scanning
                  ? ` · ${engineNames[progress.data.currentTool] ?? progress.data.currentTool}`
                  : ''}
              </p>
              <span className="flex items-center gap-2">
                {progress.data.overallProgress}%
                <span
                  className={`rounded-full px-2 py-0.5 text-xs font-semibold ${engineErrors.length ? 'bg-red-100 text-red-900' : 'bg-slate-100 text-slate-900'}`}
                >
                  {engineErrors.length} engine errors
                </span>
              </span>
            </div>
            <Progress value={progress.data.overallProgress} label="Scan progress" />
            {progress.data.error && <p className="text-sm text-bad">{progress.data.error}</p>}
          </div>
        )}
      </Card>
      {stage === 'complete' && results.data && (
        <ResultTabs
          results={results.data}
          url={progress.data?.url ?? url}
          scanId={scanId ?? ''}
          timestamp={startedAt ?? ''}
        />
      )}
      {stage === 'complete' &&
        (results.isError || (results.data && engineTabs.every((t) => !t.pick(results.data)))) && (
          <p role="alert" className="mt-6 text-bad">
            Scan completed but no results available. Please try scanning again.
          </p>
        )}
    </div>
  );
}

function ResultTabs({
  results,
  url,
  scanId,
  timestamp,
}: {
  results: ScanResults;
  url: string;
  scanId: string;
  timestamp: string;
}) {
  return (
    <section aria-labelledby="raw-heading" className="mt-8">
      <h2 id="raw-heading" className="text-2xl font-bold">
        Engine output
      </h2>
      <dl className="mt-2 grid gap-1 text-sm text-slate-700 sm:grid-cols-3">
        <div>
          <dt className="inline font-semibold">URL: </dt>
          <dd className="inline break-all">{url}</dd>
        </div>
        <div>
          <dt className="inline font-semibold">Scan id: </dt>
          <dd className="inline break-all">{scanId}</dd>
        </div>
        <div>
          <dt className="inline font-semibold">Timestamp: </dt>
          <dd className="inline">{timestamp}</dd>
        </div>
      </dl>
      <Tabs defaultValue="axe" className="mt-4">
        <TabsList aria-label="Engines">
          {engineTabs.map((tab) => (
            <TabsTrigger key={tab.id} value={tab.id}>
              {tab.label}
              <span className="rounded-full bg-slate-200 px-2 text-xs">{tab.count(results)}</span>
            </TabsTrigger>
          ))}
        </TabsList>
        {engineTabs.map((tab) => (
          <TabsContent key={tab.id} value={tab.id}>
            <JsonPanel
              name={`${tab.id} output`}
              value={tab.pick(results)}
              items={tab.count(results)}
              filename={`${tab.id}-${scanId.slice(0, 8)}.json`}
            />
          </TabsContent>
        ))}
      </Tabs>
    </section>
  );
}
