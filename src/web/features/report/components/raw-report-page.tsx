import { Download } from 'lucide-react';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import type { ReportResponse } from '#contract/scan-api.js';
import { paths } from '../../../lib/paths';
import { usePageTitle } from '../../../lib/page-title';
import { JsonPanel } from '../../../components/json-panel';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Spinner } from '../../../components/ui/spinner';
import { UrlScanForm } from '../../../components/url-scan-form';
import { trackScanCompleted, trackScanInitiated } from '../../../lib/analytics';
import { messageOf } from '../../../lib/api-client';
import { toast } from '../../../lib/toast-store';
import { useAnalyze } from '../api/analyze';
import { documentHrefs } from '../api/documents';
import { isUnfinished, useRawReport } from '../api/get-report';
import { formatDateTime, formatScoreWithLabel } from '#contract/vocabulary.js';

const ownEngines: ReadonlySet<string> = new Set(['checks', 'keyboard', 'behaviour']);

/** The JSON panels of the page: the merged issues, then each engine's own output. */
const panels = [
  {
    id: 'issues',
    engine: null,
    heading: 'Merged issues',
    name: 'Merged issues',
    pick: (r: ReportResponse) => r.issues,
    count: (r: ReportResponse) => r.issues.length,
  },
  {
    id: 'axe',
    engine: 'axe',
    heading: 'axe-core',
    name: 'axe output',
    pick: (r: ReportResponse) => r.axe,
    count: (r: ReportResponse) => r.axe?.violations.length,
  },
  {
    id: 'pa11y',
    engine: 'pa11y',
    heading: 'Pa11y',
    name: 'pa11y output',
    pick: (r: ReportResponse) => r.pa11y,
    count: (r: ReportResponse) => r.pa11y?.issues.length,
  },
  {
    id: 'ibm',
    engine: 'ibm',
    heading: 'IBM Equal Access',
    name: 'ibm output',
    pick: (r: ReportResponse) => r.ibm,
    count: (r: ReportResponse) => r.ibm?.report.results.length,
  },
  {
    id: 'checks',
    engine: 'checks',
    heading: 'Link and presentation checks',
    name: 'checks output',
    pick: (r: ReportResponse) => r.checks,
    count: (r: ReportResponse) => r.checks?.results.length,
  },
  {
    id: 'keyboard',
    engine: 'keyboard',
    heading: 'Keyboard walk',
    name: 'keyboard output',
    pick: (r: ReportResponse) => r.keyboard,
    count: (r: ReportResponse) => r.keyboard?.results.length,
  },
  {
    id: 'behaviour',
    engine: 'behaviour',
    heading: 'Behaviour checks',
    name: 'behaviour output',
    pick: (r: ReportResponse) => r.behaviour,
    count: (r: ReportResponse) => r.behaviour?.results.length,
  },
] as const;

/**
 * The raw analysis page (spec §2, /raw-report/{scanId}): one scan's metadata, its merged issues
 * and each engine's output as JSON with exports, and a URL field whose Analyze button scans
 * another page and opens its raw report.
 */
export function RawReportPage() {
  const { scanId = '' } = useParams();
  // A new scan id is a new page: the URL field starts again from that scan's address.
  return <RawReport key={scanId} scanId={scanId} />;
}

function RawReport({ scanId }: { scanId: string }) {
  const report = useRawReport(scanId);
  usePageTitle(report.data ? `Raw analysis of ${report.data.domain}` : 'Raw analysis');

  if (report.isPending)
    return <Spinner label="Loading the raw analysis" className="min-h-[50vh]" />;
  if (report.isError) {
    return (
      <div className="mx-auto max-w-3xl px-4 py-16">
        <div className="text-center">
          <h1 className="text-3xl font-bold">Analysis Failed</h1>
          <p className="mt-4 text-slate-700">Failed to load accessibility report</p>
          <Button asChild className="mt-8">
            <Link to={paths.home.getHref()}>Back to the home page</Link>
          </Button>
        </div>
        <AnalyzeForm initialUrl="" />
      </div>
    );
  }
  const data = report.data;
  const base = `${data.domain}-${data.scanId.slice(0, 8)}`;
  return (
    // minmax(0, 1fr): the JSON panels scroll inside their cards instead of widening the page.
    <div className="mx-auto grid max-w-5xl grid-cols-[minmax(0,1fr)] gap-8 px-4 py-12">
      <div>
        <h1 className="text-3xl font-bold break-words">Raw analysis of {data.domain}</h1>
        <p className="mt-2 text-slate-700">
          The merged issues of one scan and what each engine (axe-core, Pa11y, IBM Equal Access and
          our own link, presentation and keyboard checks) reported, as it reported it.{' '}
          <Link
            className="font-semibold text-brand-700 underline"
            to={paths.report.getHref(scanId)}
          >
            Documents of this scan
          </Link>
        </p>
      </div>
      <AnalyzeForm initialUrl={data.scan.url} />
      <Metadata data={data} />
      {isUnfinished(data) ? (
        <p role="status" className="text-slate-700">
          This scan is still {data.scan.status}; its output appears here when it ends.
        </p>
      ) : (
        <>
          <section aria-labelledby="exports-heading">
            <h2 id="exports-heading" className="text-2xl font-bold">
              Exports
            </h2>
            <div className="mt-3 flex flex-wrap gap-2">
              <Button asChild variant="outline">
                <a href={documentHrefs.export(data.scanId, 'csv')} download>
                  <Download aria-hidden="true" className="h-4 w-4" />
                  Issues (CSV)
                </a>
              </Button>
              <Button asChild variant="outline">
                <a href={documentHrefs.rawReport(data.scanId)} download={`${base}-report.json`}>
                  <Download aria-hidden="true" className="h-4 w-4" />
                  Full report (JSON)
                </a>
              </Button>
            </div>
          </section>
          {panels
            // Conformly's own engines have a panel only in scans they ran in.
            .filter((panel) => !ownEngines.has(panel.id) || panel.pick(data) !== undefined)
            .map((panel) => (
              <section key={panel.id} aria-labelledby={`panel-${panel.id}`}>
                <h2 id={`panel-${panel.id}`} className="mb-3 text-2xl font-bold">
                  {panel.heading}
                </h2>
                {panel.engine && data.scan.engineErrors[panel.engine] && (
                  <p className="mb-3 text-sm text-bad">
                    {panel.heading} did not finish: {data.scan.engineErrors[panel.engine]}
                  </p>
                )}
                <JsonPanel
                  name={panel.name}
                  value={panel.pick(data)}
                  items={panel.count(data)}
                  filename={`${base}-${panel.id}.json`}
                />
              </section>
            ))}
        </>
      )}
    </div>
  );
}

function Metadata({ data }: { data: ReportResponse }) {
  const times = data.scan.processingTimes;
  const rows: [string, ReactNode][] = [
    ['URL', <span className="break-all">{data.scan.url}</span>],
    ['Scan id', <span className="font-mono break-all">{data.scanId}</span>],
    ['Date', <time dateTime={data.scanDate}>{formatDateTime(data.scanDate)}</time>],
    ['Score', data.score === null ? 'No score' : formatScoreWithLabel(data.score)],
    ['Violations', String(data.totalIssues)],
    ['Status', data.scan.status],
  ];
  if (data.scan.finalUrl && data.scan.finalUrl !== data.scan.url) {
    rows.splice(1, 0, ['Final URL', <span className="break-all">{data.scan.finalUrl}</span>]);
  }
  if (times) {
    rows.push([
      'Processing times',
      [
        `axe ${times.axe} ms`,
        `Pa11y ${times.pa11y} ms`,
        `IBM ${times.ibm} ms`,
        ...(times.checks === undefined ? [] : [`link and presentation checks ${times.checks} ms`]),
        ...(times.keyboard === undefined ? [] : [`keyboard walk ${times.keyboard} ms`]),
        ...(times.behaviour === undefined ? [] : [`behaviour checks ${times.behaviour} ms`]),
        `total ${times.total} ms`,
      ].join(' · '),
    ]);
  }
  if (data.scan.error) rows.push(['Error', data.scan.error]);
  return (
    <section aria-labelledby="metadata-heading">
      <h2 id="metadata-heading" className="text-2xl font-bold">
        Scan
      </h2>
      <Card className="mt-3">
        <dl className="grid gap-x-6 gap-y-2 sm:grid-cols-[10rem_1fr]">
          {rows.map(([term, value]) => (
            <div key={term} className="contents">
              <dt className="font-semibold">{term}</dt>
              <dd className="text-slate-700">{value}</dd>
            </div>
          ))}
        </dl>
      </Card>
    </section>
  );
}

/**
 * Analyze: one long call that scans the page and answers its report (10 to 60 seconds). The
 * person sees how long it has been running and can stop waiting; leaving the page stops it too.
 */
function AnalyzeForm({ initialUrl }: { initialUrl: string }) {
  const navigate = useNavigate();
  const analyze = useAnalyze();
  const [url, setUrl] = useState(initialUrl);
  const [elapsed, setElapsed] = useState(0);
  const controller = useRef<AbortController>(undefined);
  const busy = analyze.isPending;

  useEffect(() => () => controller.current?.abort(), []);
  useEffect(() => {
    if (!busy) return;
    const started = Date.now();
    const timer = setInterval(() => setElapsed(Math.round((Date.now() - started) / 1000)), 1000);
    return () => {
      clearInterval(timer);
      setElapsed(0);
    };
  }, [busy]);

  const onSubmit = async (target: string) => {
    controller.current = new AbortController();
    trackScanInitiated(target, 'raw-analysis');
    try {
      const answer = await analyze.mutateAsync({ url: target, signal: controller.current.signal });
      trackScanCompleted(answer.scan.url, answer.totalIssues, answer.score);
      await navigate(paths.rawReport.getHref(answer.scanId));
    } catch (error) {
      if (error instanceof DOMException && error.name === 'AbortError') {
        toast({
          title: 'Analysis cancelled',
          description: 'Stopped waiting for the result; a scan already under way may still finish.',
        });
        return;
      }
      toast({
        title: 'Analysis Failed',
        description: messageOf(error, 'Failed to load accessibility report'),
        variant: 'destructive',
      });
    }
  };

  return (
    <Card>
      <UrlScanForm
        id="analyze-url"
        formLabel="Analyze a page"
        label="Website URL"
        value={url}
        onValueChange={setUrl}
        onSubmit={(target) => void onSubmit(target)}
        busy={busy}
        lockField="readOnly"
        submitContent={busy ? 'Analyzing…' : 'Analyze'}
        actions={
          busy && (
            <Button type="button" variant="outline" onClick={() => controller.current?.abort()}>
              Cancel
            </Button>
          )
        }
      />
      {busy && (
        <div className="mt-4 flex items-center gap-3 text-sm">
          <span
            aria-hidden="true"
            className="h-5 w-5 shrink-0 animate-spin rounded-full border-2 border-slate-300 border-t-brand-600 motion-reduce:animate-none"
          />
          <p>
            <span role="status">
              Analyzing {url.trim()} with axe-core, Pa11y and IBM Equal Access. This usually takes
              10 to 60 seconds.
            </span>{' '}
            <span className="text-slate-700">{elapsed} s so far</span>
          </p>
        </div>
      )}
    </Card>
  );
}
