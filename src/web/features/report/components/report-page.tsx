import { Download, ExternalLink, FileText } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { Link, useLocation, useParams } from 'react-router';
import { impacts } from '#contract/engine-ids.js';
import { isOwnersReport, type ReportResponse } from '#contract/scan-api.js';
import {
  engineNames,
  formatDate,
  formatScore,
  scoreLabel,
  wcagStandard,
} from '#contract/vocabulary.js';
import { paths } from '../../../lib/paths';
import { usePageTitle } from '../../../lib/page-title';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Spinner } from '../../../components/ui/spinner';
import { IssueExplorer } from '../../../components/issues/issue-explorer';
import { SendToGithub, TriageControl } from '../../../components/issues/issue-actions';
import { useTeamAndMe, useTriage } from '../../../api/triage/triage';
import { scoreToneClass } from '../../../components/score/score-tone';
import { trackVpatDownload } from '../../../lib/analytics';
import { messageOf } from '../../../lib/api-client';
import { toast } from '../../../lib/toast-store';
import { documentHrefs } from '../api/documents';
import { isUnfinished, useReport } from '../api/get-report';
import { useVpatDownload } from '../api/vpat-from-scan';
import { ShareControl } from './share-control';

/** The data files of a scan, each served by the server (the same files the API and CLI give). */
const dataExports = [
  { label: 'Issues (CSV)', href: (id: string) => documentHrefs.export(id, 'csv') },
  { label: 'Raw report (JSON)', href: (id: string) => documentHrefs.export(id, 'json') },
  { label: 'axe-core output (JSON)', href: (id: string) => documentHrefs.engineOutput(id, 'axe') },
  { label: 'Pa11y output (JSON)', href: (id: string) => documentHrefs.engineOutput(id, 'pa11y') },
  {
    label: 'IBM Equal Access output (JSON)',
    href: (id: string) => documentHrefs.engineOutput(id, 'ibm'),
  },
] as const;

/** The documents of one scan (spec §2 report page), with its score and issues. */
export function ReportPage() {
  const { scanId = '' } = useParams();
  const report = useReport(scanId);
  usePageTitle(report.data ? `Report for ${report.data.domain}` : 'Accessibility report');

  if (report.isPending) return <Spinner label="Loading the report" className="min-h-[50vh]" />;
  if (report.isError) {
    return (
      <div className="mx-auto max-w-xl px-4 py-24 text-center">
        <h1 className="text-3xl font-bold">Assessment Report Not Found</h1>
        <p className="mt-4 text-slate-700">
          The requested compliance assessment could not be located.
        </p>
        <Button asChild className="mt-8">
          <Link to={paths.home.getHref()}>Start a new scan</Link>
        </Button>
      </div>
    );
  }
  const data = report.data;
  return (
    <div className="mx-auto grid max-w-6xl gap-8 px-4 py-10 md:grid-cols-[14rem_1fr]">
      <nav aria-label="Report sections" className="md:sticky md:top-24 md:self-start">
        <ul className="grid gap-1 text-sm">
          <li>
            <Link
              className="block rounded-md px-3 py-2 font-semibold hover:bg-slate-100"
              to={paths.dashboard.getHref()}
            >
              Dashboard
            </Link>
          </li>
          <li>
            <a
              className="block rounded-md px-3 py-2 font-semibold hover:bg-slate-100"
              href="#scan-summary"
            >
              Website Scans
              <span className="block font-normal break-all text-slate-700">{data.domain}</span>
            </a>
          </li>
          {data.scan.status === 'completed' && (
            <li>
              <a
                className="block rounded-md px-3 py-2 font-semibold hover:bg-slate-100"
                href="#share"
              >
                Share
              </a>
            </li>
          )}
          <li>
            <a
              className="block rounded-md px-3 py-2 font-semibold hover:bg-slate-100"
              href="#documents"
            >
              Documents
            </a>
          </li>
          <li>
            <a
              className="block rounded-md px-3 py-2 font-semibold hover:bg-slate-100"
              href="#issues"
            >
              Issues
            </a>
          </li>
        </ul>
      </nav>
      <div className="grid min-w-0 gap-8">
        <Summary data={data} />
        {data.scan.status === 'completed' && data.sharing.canChange && (
          <ShareControl scanId={data.scanId} sharing={data.sharing} />
        )}
        {data.scan.status === 'completed' && !data.monitoredByCaller && (
          <Link
            className="font-semibold text-brand-600 underline"
            to={paths.subscribe.getHref(data.scanId)}
          >
            Monitor {data.domain} with Compliance Shield
          </Link>
        )}
        <Documents data={data} />
        <Issues data={data} />
      </div>
    </div>
  );
}

/**
 * Opened right after a scan (the scan screen says so in the navigation state), the report puts
 * focus on its heading, so a screen reader starts at the result and a keyboard is one Tab from
 * the skip link to the issues.
 */
function useFocusAfterScan() {
  const heading = useRef<HTMLHeadingElement>(null);
  const location = useLocation();
  const afterScan = (location.state as { afterScan?: boolean } | null)?.afterScan === true;
  useEffect(() => {
    if (afterScan) heading.current?.focus();
  }, [afterScan, location.key]);
  return heading;
}

function Summary({ data }: { data: ReportResponse }) {
  const violations = data.scan.summary?.violations;
  const heading = useFocusAfterScan();
  return (
    <section id="scan-summary" aria-labelledby="report-heading" className="scroll-mt-24">
      <p className="text-sm font-semibold text-brand-600">Standard: {wcagStandard.short}</p>
      <h1
        id="report-heading"
        ref={heading}
        tabIndex={-1}
        className="mt-1 text-3xl font-bold break-words focus:outline-none"
      >
        Accessibility report for {data.domain}
      </h1>
      <p className="mt-2 break-all text-slate-700">
        {data.scan.url} · scanned {formatDate(data.scanDate)}
      </p>
      {data.issues.length > 0 && (
        <a
          href="#issues"
          className="mt-2 inline-block rounded-md font-semibold text-brand-700 underline"
        >
          Skip to the first issue
        </a>
      )}
      {isUnfinished(data) && (
        <p role="status" className="mt-2 font-semibold">
          This scan is still {data.scan.status}; the report fills in when it ends.
        </p>
      )}
      <dl className="mt-6 grid gap-4 sm:grid-cols-3">
        <Card>
          <dt className="text-sm text-slate-700">Accessibility score</dt>
          <dd className="text-4xl font-extrabold" data-testid="report-score">
            {formatScore(data.score)}
          </dd>
          {data.score !== null && (
            <dd
              className={`mt-1 inline-block rounded border px-2 text-sm font-semibold ${scoreToneClass(data.score)}`}
              data-testid="report-score-label"
            >
              {scoreLabel(data.score)}
            </dd>
          )}
        </Card>
        <Card>
          <dt className="text-sm text-slate-700">Violations</dt>
          <dd className="text-4xl font-extrabold">{data.totalIssues}</dd>
          {data.scan.summary && (
            <dd className="text-sm text-slate-700">
              {data.scan.summary.needsReview} to review by hand, {data.scan.summary.bestPractice}{' '}
              best practice
              {data.scan.summary.bestPractice === 1 ? '' : 's'}
            </dd>
          )}
        </Card>
        <Card>
          <dt className="text-sm text-slate-700">By impact</dt>
          <dd>
            <ul className="mt-1 grid gap-1 text-sm">
              {impacts.map((impact) => (
                <li key={impact} className="flex justify-between">
                  <span className="capitalize">{impact}</span>
                  <span className="font-semibold">{violations?.[impact] ?? 0}</span>
                </li>
              ))}
            </ul>
          </dd>
        </Card>
      </dl>
      {Object.keys(data.scan.engineErrors).length > 0 && (
        <p role="note" className="mt-4 rounded-md border border-warn p-3 text-sm text-warn">
          Not every engine finished:{' '}
          {Object.entries(data.scan.engineErrors)
            .map(
              ([engine, message]) =>
                `${engineNames[engine as keyof typeof engineNames] ?? engine}: ${message}`,
            )
            .join('; ')}
        </p>
      )}
      {data.scan.aiSummary && (
        <Card className="mt-4">
          <h2 className="font-semibold">Summary</h2>
          <p className="mt-2 whitespace-pre-line text-slate-700">{data.scan.aiSummary}</p>
        </Card>
      )}
    </section>
  );
}

function Documents({ data }: { data: ReportResponse }) {
  const vpat = useVpatDownload('generate');
  const template = useVpatDownload('template');
  const id = data.scanId;

  const download = (kind: 'vpat' | 'template') => {
    const mutation = kind === 'vpat' ? vpat : template;
    mutation.mutate(data.scanId, {
      onSuccess: () => {
        trackVpatDownload(data.domain, 'docx');
        toast({
          title: 'Success',
          description: 'VPAT report has been generated and downloaded',
          variant: 'success',
        });
      },
      onError: (error) =>
        toast({
          title: kind === 'vpat' ? 'Generation failed' : 'Template fill failed',
          description: messageOf(
            error,
            kind === 'vpat' ? 'Failed to generate VPAT report' : 'Failed to fill VPAT template',
          ),
          variant: 'destructive',
        }),
    });
  };

  return (
    <section id="documents" aria-labelledby="documents-heading" className="scroll-mt-24">
      <h2 id="documents-heading" className="text-2xl font-bold">
        Documents
      </h2>
      <div className="mt-4 grid gap-4 sm:grid-cols-2">
        <Card>
          <h3 className="font-semibold">Reports</h3>
          <div className="mt-3 grid gap-2">
            <Button asChild variant="outline">
              <a href={documentHrefs.htmlReport(id)} target="_blank" rel="noopener">
                <ExternalLink aria-hidden="true" className="h-4 w-4" />
                HTML report<span className="sr-only"> (opens in a new tab)</span>
              </a>
            </Button>
            <Button asChild variant="outline">
              <a href={documentHrefs.statementPdf(id)} target="_blank" rel="noopener">
                <FileText aria-hidden="true" className="h-4 w-4" />
                Statement PDF<span className="sr-only"> (opens in a new tab)</span>
              </a>
            </Button>
            <Button variant="outline" disabled={vpat.isPending} onClick={() => download('vpat')}>
              <Download aria-hidden="true" className="h-4 w-4" />
              {vpat.isPending ? 'Generating VPAT…' : 'VPAT 2.4 (Word)'}
            </Button>
            <Button
              variant="outline"
              disabled={template.isPending}
              onClick={() => download('template')}
            >
              <Download aria-hidden="true" className="h-4 w-4" />
              {template.isPending ? 'Filling template…' : 'Filled VPAT template (Word)'}
            </Button>
          </div>
        </Card>
        <Card>
          <h3 className="font-semibold">Data exports</h3>
          <div className="mt-3 grid gap-2">
            {dataExports.map(({ label, href }) => (
              <Button key={label} asChild variant="outline">
                <a href={href(id)} download>
                  <Download aria-hidden="true" className="h-4 w-4" />
                  {label}
                </a>
              </Button>
            ))}
            <Link
              className="px-1 py-2 text-sm font-semibold text-brand-700 underline underline-offset-4"
              to={paths.rawReport.getHref(data.scanId)}
            >
              Raw analysis: each engine's output on one page
            </Link>
          </div>
        </Card>
      </div>
    </section>
  );
}

/**
 * Every count here is of issues (one problem on one element, merged across engines), the same
 * counting as the summary: the Violations tab holds exactly the summary's violations.
 */
function Issues({ data }: { data: ReportResponse }) {
  const total = data.issues.length;
  return (
    // Focusable so the skip link moves focus here, the next Tab reaching the first issue.
    <section
      id="issues"
      aria-labelledby="issues-heading"
      tabIndex={-1}
      className="scroll-mt-24 focus:outline-none"
    >
      <h2 id="issues-heading" className="text-2xl font-bold">
        Issues
      </h2>
      <p className="mt-1 text-sm text-slate-700">
        {total} issue{total === 1 ? '' : 's'} in all: each is one problem on one element, however
        many engines found it; grouped below by rule.
      </p>
      <div className="mt-4">
        {isOwnersReport(data) ? (
          <OwnersIssueExplorer data={data} />
        ) : (
          <IssueExplorer
            issues={data.issues}
            screenshotUrl={data.scan.screenshots.at(-1) ?? null}
            comparison={data.comparison ?? null}
          />
        )}
      </div>
    </section>
  );
}

/**
 * The issues of a scan of a domain the caller's organisation monitors, each violation and review
 * request with its triage state on the domain (changed here, as on the triage screen) and a way
 * to send it to GitHub.
 */
function OwnersIssueExplorer({ data }: { data: ReportResponse }) {
  const triage = useTriage(data.domain);
  const team = useTeamAndMe();
  const stateOf = new Map(triage.data?.triage.map((row) => [row.issueKey, row.state]));
  const canChange = team.data?.me === undefined || team.data.me.role !== 'viewer';
  return (
    <IssueExplorer
      issues={data.issues}
      screenshotUrl={data.scan.screenshots.at(-1) ?? null}
      comparison={data.comparison ?? null}
      elementActions={(issue) =>
        issue.kind === 'best-practice' ? null : (
          <div className="grid gap-3 sm:grid-cols-[1fr_auto]">
            <TriageControl
              domain={data.domain}
              issueKey={issue.id}
              title={issue.title}
              state={stateOf.get(issue.id) ?? 'open'}
              canChange={canChange && triage.isSuccess}
            />
            {canChange && (
              <SendToGithub domain={data.domain} issueKeys={[issue.id]} name={issue.title} />
            )}
          </div>
        )
      }
    />
  );
}
