import { Plus, Trash2 } from 'lucide-react';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { maxAuditPages, maxAuditPagesMessage } from '#contract/audit.js';
import { enginesInWords } from '#contract/vocabulary.js';
import { usePageTitle } from '../../../lib/page-title';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Input } from '../../../components/ui/input';
import { track } from '../../../lib/analytics';
import { toast } from '../../../lib/toast-store';
import { useAuditRun } from '../hooks/use-audit-run';
import { useFocusRequest } from '../hooks/use-focus-request';
import { progressSentence } from '../page-runs';
import { ArchiveLink, AverageTimes, PageProgressList, SummaryFigures } from './audit-overview';
import { SiteResults } from './site-results';

let nextKey = 1;
const newEntry = (url = '') => ({ key: nextKey++, url });

/** Spec §2 multi-page audit: up to 10 addresses scanned together, summary and per-page results. */
export function MultiPageAuditPage() {
  usePageTitle('Multi-page audit');
  const [entries, setEntries] = useState(() => [newEntry()]);
  const run = useAuditRun('multi-page', 'Failed to perform the audit');
  const atLimit = entries.length >= maxAuditPages;
  const urls = entries.map((e) => e.url.trim()).filter(Boolean);
  const progressHeadingRef = useRef<HTMLHeadingElement>(null);
  const focusLater = useFocusRequest();

  useEffect(() => {
    if (run.failure) {
      toast({ title: 'Audit failed', description: run.failure, variant: 'destructive' });
    }
  }, [run.failure]);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (urls.length === 0 || run.isPending) return;
    track('feature_usage', { feature: 'multi_page_audit', pages: urls.length });
    run.start(urls);
    focusLater(() => progressHeadingRef.current);
  };

  const summary = run.data?.summary;
  return (
    <div className="mx-auto max-w-5xl px-4 py-12">
      <h1 className="text-3xl font-bold">Multi-page audit</h1>
      <p className="mt-2 text-slate-700">
        Scan up to {maxAuditPages} pages of a site with all {enginesInWords()} at once.
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
          <Button type="submit" disabled={urls.length === 0 || run.isPending}>
            {run.isPending ? 'Auditing…' : 'Start audit'}
          </Button>
        </form>
      </Card>
      {run.urls.length > 0 && (
        <div className="mt-10 grid gap-6">
          {run.data && <SiteResults results={run.data.results} />}
          {summary && (
            <section aria-labelledby="audit-summary-heading" className="grid gap-6">
              <h2 id="audit-summary-heading" className="text-2xl font-bold">
                What each engine reported
              </h2>
              <p className="text-sm text-slate-700">
                Raw counts before merging: one problem found by two engines counts twice here and
                once in the site results above.
              </p>
              <SummaryFigures summary={summary} />
              <AverageTimes summary={summary} showBrowserStats />
              <ArchiveLink archive={summary.archive} />
            </section>
          )}
          <section aria-labelledby="audit-pages-heading" className="grid gap-4">
            <h2
              id="audit-pages-heading"
              ref={progressHeadingRef}
              tabIndex={-1}
              className="text-2xl font-bold focus:outline-none"
            >
              Pages
            </h2>
            <p role="status" className="text-sm font-medium">
              {progressSentence(run.runs)}
            </p>
            <PageProgressList runs={run.runs} label="Audit progress by page" />
          </section>
        </div>
      )}
    </div>
  );
}
