import { startTransition, Suspense, useState } from 'react';
import { useParams } from 'react-router';
import { formatDate } from '#contract/vocabulary.js';
import { usePageTitle } from '../../../lib/page-title';
import { loadOnIntent } from '../../../lib/load-on-intent';
import { Card } from '../../../components/ui/card';
import { Spinner } from '../../../components/ui/spinner';
import { ScoreLabelChip } from '../../../components/score/score-label';
import { usePublicStatus } from '../api/get-public-status';
import { Button } from '../../../components/ui/button';
import { NotFoundMessage } from './not-found-message';
import { ScoreRing } from './score-ring';
import { KeyFigures } from './key-figures';
import { scoreBasis } from '../score-basis';

/**
 * The complaint form (with react-hook-form and zod, about 60 KB compressed) loads when a visitor
 * points at, focuses or presses its button, not with the status: most visitors only read. Pressed
 * before the form has arrived, the form opens when it does.
 */
const { Component: ComplaintDialog, intent: complaintIntent } = loadOnIntent(
  async () => (await import('./complaint-dialog')).ComplaintDialog,
);

/** The public status page of a domain (spec §2). */
export function StatusPage() {
  const { domain = '' } = useParams();
  const status = usePublicStatus(domain);
  const [complaintWanted, setComplaintWanted] = useState(false);
  usePageTitle(`Accessibility status of ${domain}`);

  if (status.isPending) return <Spinner label="Loading the status page" className="min-h-[50vh]" />;
  if (status.isError) {
    return (
      <NotFoundMessage title="Domain Not Found">
        <p>No compliance monitoring found for this domain.</p>
      </NotFoundMessage>
    );
  }
  const data = status.data;
  const basis = scoreBasis(data);
  return (
    <div className="mx-auto max-w-5xl px-4 py-12">
      <p className="text-sm font-semibold text-brand-600">Public accessibility status</p>
      <h1 className="mt-1 text-3xl font-bold break-all">{data.domain}</h1>
      <div className="mt-8 grid gap-6 md:grid-cols-[auto_1fr] md:items-center">
        <ScoreRing score={data.complianceScore} label={basis.label.toLowerCase()} />
        <div>
          <ScoreLabelChip score={data.complianceScore} pending="Monitored: first scan pending" />
          <p className="mt-4 text-slate-800">{data.summary}</p>
          <p className="mt-2 text-sm text-slate-700">{basis.sentence}</p>
        </div>
      </div>
      <KeyFigures
        className="sm:grid-cols-2 lg:grid-cols-4"
        figures={[
          ['Open issues', data.totalIssues],
          ['Last scan', formatDate(data.lastScan)],
          ['Monitoring since', formatDate(data.monitoringSince)],
          ['Standard', data.standard],
        ]}
      />
      <section aria-labelledby="complaints-heading" className="mt-10">
        <h2 id="complaints-heading" className="text-2xl font-bold">
          Reported issues
        </h2>
        <p className="mt-2 text-slate-800">
          {data.complaintSummary.total} reported, {data.complaintSummary.resolved} resolved,{' '}
          {data.complaintSummary.active} being worked on.
        </p>
        <p className="mt-2 text-slate-800">
          Met a barrier on {data.domain}? Tell its owner; every report is counted here.
        </p>
        <div className="mt-4">
          {/* A transition keeps this button on screen, and focused, until the form has arrived. */}
          <Suspense fallback={null}>
            {complaintWanted ? (
              <ComplaintDialog domain={domain} initiallyOpen />
            ) : (
              <Button
                onClick={() => startTransition(() => setComplaintWanted(true))}
                {...complaintIntent}
              >
                Report an Accessibility Issue
              </Button>
            )}
          </Suspense>
        </div>
      </section>
      <section aria-labelledby="trail-heading" className="mt-10">
        <h2 id="trail-heading" className="text-2xl font-bold">
          Audit trail
        </h2>
        {data.auditTrail.length === 0 ? (
          <p className="mt-2 text-slate-700">No events yet.</p>
        ) : (
          <ol className="mt-4 grid gap-3">
            {data.auditTrail.map((entry) => (
              <li key={`${entry.date}-${entry.event}`}>
                <Card className="p-4">
                  <p className="flex flex-wrap items-center gap-2 text-sm text-slate-700">
                    <time dateTime={entry.date}>{formatDate(entry.date)}</time>
                    <span className="rounded bg-slate-100 px-2 py-0.5 font-semibold text-slate-900">
                      {entry.status}
                    </span>
                  </p>
                  <h3 className="mt-1 font-semibold">{entry.event}</h3>
                  <p className="mt-1 text-sm text-slate-700">{entry.details}</p>
                </Card>
              </li>
            ))}
          </ol>
        )}
      </section>
      <p className="mt-10 text-sm text-slate-700">Last updated {formatDate(data.lastUpdated)}.</p>
    </div>
  );
}
