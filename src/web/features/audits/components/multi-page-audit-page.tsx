import { Plus, Trash2 } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { maxAuditPages, maxAuditPagesMessage } from '../../../../contract/audit';
import { usePageTitle } from '../../../app/page-title';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Input } from '../../../components/ui/input';
import { Spinner } from '../../../components/ui/spinner';
import { track } from '../../../lib/analytics';
import { messageOf } from '../../../lib/api-client';
import { toast } from '../../../lib/toast-store';
import { useMultiPageAudit } from '../api/run-multi-page-audit';
import { formatDuration } from '../format-duration';
import { PageResultCard } from './page-result-card';

let nextKey = 1;
const newEntry = (url = '') => ({ key: nextKey++, url });

/** Spec §2 multi-page audit: up to 10 addresses scanned together, summary and per-page results. */
export function MultiPageAuditPage() {
  usePageTitle('Multi-page audit');
  const [entries, setEntries] = useState(() => [newEntry()]);
  const audit = useMultiPageAudit();
  const atLimit = entries.length >= maxAuditPages;
  const urls = entries.map((e) => e.url.trim()).filter(Boolean);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (urls.length === 0) return;
    track('feature_usage', { feature: 'multi_page_audit', pages: urls.length });
    audit.mutate(urls, {
      onError: (error) =>
        toast({
          title: 'Audit failed',
          description: messageOf(error, 'Failed to perform the audit'),
          variant: 'destructive',
        }),
    });
  };

  const summary = audit.data?.summary;
  return (
    <div className="mx-auto max-w-5xl px-4 py-12">
      <h1 className="text-3xl font-bold">Multi-page audit</h1>
      <p className="mt-2 text-slate-700">
        Scan up to {maxAuditPages} pages of a site with all three engines at once.
      </p>
      <Card className="mt-8">
        <form onSubmit={onSubmit} className="grid gap-3">
          <fieldset className="grid gap-2">
            <legend className="mb-1 text-sm font-semibold">Page addresses</legend>
            {entries.map((entry, index) => (
              <div key={entry.key} className="flex gap-2">
                <Input
                  aria-label={`Page ${index + 1} URL`}
                  inputMode="url"
                  placeholder="https://example.com/page"
                  value={entry.url}
                  onChange={(e) =>
                    setEntries((list) =>
                      list.map((x) => (x.key === entry.key ? { ...x, url: e.target.value } : x)),
                    )
                  }
                />
                {entries.length > 1 && (
                  <Button
                    type="button"
                    variant="outline"
                    size="icon"
                    onClick={() => setEntries((list) => list.filter((x) => x.key !== entry.key))}
                  >
                    <Trash2 aria-hidden="true" className="h-4 w-4" />
                    <span className="sr-only">Remove page {index + 1}</span>
                  </Button>
                )}
              </div>
            ))}
          </fieldset>
          {atLimit ? (
            <p className="text-sm font-medium text-warn">{maxAuditPagesMessage}</p>
          ) : (
            <Button
              type="button"
              variant="outline"
              className="justify-self-start"
              onClick={() => setEntries((list) => [...list, newEntry()])}
            >
              <Plus aria-hidden="true" className="h-4 w-4" />
              Add URL
            </Button>
          )}
          <Button type="submit" disabled={urls.length === 0 || audit.isPending}>
            {audit.isPending ? 'Auditing…' : 'Start audit'}
          </Button>
        </form>
      </Card>
      {audit.isPending && <Spinner label="Scanning the pages" />}
      {summary && audit.data && (
        <section aria-labelledby="audit-summary-heading" className="mt-10 grid gap-6">
          <h2 id="audit-summary-heading" className="text-2xl font-bold">
            Audit summary
          </h2>
          <dl className="grid gap-3 sm:grid-cols-5">
            {[
              ['Total pages', summary.totalPages],
              ['Pa11y issues', summary.totalPa11yIssues],
              ['Axe violations', summary.totalAxeViolations],
              ['IBM issues', summary.totalIbmViolations],
              ['Completed pages', summary.completedPages],
            ].map(([term, value]) => (
              <Card key={term} className="p-4">
                <dt className="text-sm text-slate-700">{term}</dt>
                <dd className="text-2xl font-bold">{value}</dd>
              </Card>
            ))}
          </dl>
          <p className="text-sm text-slate-700">
            Average time per page: Pa11y {formatDuration(summary.averageProcessingTime.pa11y)}, axe{' '}
            {formatDuration(summary.averageProcessingTime.axe)}, IBM{' '}
            {formatDuration(summary.averageProcessingTime.ibm)}, total{' '}
            {formatDuration(summary.averageProcessingTime.total)}. Browser tabs:{' '}
            {summary.browserStats.available} available, {summary.browserStats.active} active,{' '}
            {summary.browserStats.total} total.
          </p>
          {summary.archive && (
            <p>
              <a className="text-brand-600 underline" href={summary.archive.downloadUrl}>
                Download the raw data archive for {summary.archive.domain} (
                {(summary.archive.fileSize / 1024).toFixed(1)} KB, ZIP)
              </a>
            </p>
          )}
          <h2 className="text-2xl font-bold">Pages</h2>
          <ul className="grid gap-4">
            {audit.data.results.map((page) => (
              <li key={page.url}>
                <PageResultCard page={page} />
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}
