import { Link, useSearchParams } from 'react-router';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Label } from '../../../components/ui/label';
import { NativeSelect } from '../../../components/ui/native-select';
import { Spinner } from '../../../components/ui/spinner';
import { messageOf } from '../../../lib/api-client';
import { usePageTitle } from '../../../lib/page-title';
import { paths } from '../../../lib/paths';
import { useReports } from '../api/get-reports';
import { formatDateTime } from '../score';
import { DocumentLinks } from './document-links';
import { ScoreBadge } from './score-badges';

/**
 * The reports hub (spec §2 Reports): every document of the account's scans (HTML report, CSV,
 * JSON, statement PDF, VPAT) and audits (ZIP archive), newest first, filtered by domain through
 * the address (`?domain=`), 25 to a page.
 */
export function ReportsPage() {
  usePageTitle('Reports');
  const [params, setParams] = useSearchParams();
  const domain = params.get('domain') || undefined;
  const page = Math.max(1, Number(params.get('page')) || 1);
  const reports = useReports(domain, page);
  const setQuery = (next: { domain?: string | undefined; page?: number }) => {
    const query: Record<string, string> = {};
    if (next.domain) query['domain'] = next.domain;
    if (next.page && next.page > 1) query['page'] = String(next.page);
    setParams(query);
  };
  const data = reports.data;
  const pages = data ? Math.max(1, Math.ceil(data.total / data.pageSize)) : 1;

  return (
    <div className="mx-auto max-w-6xl px-4 py-8">
      <h1 className="text-3xl font-bold">Reports</h1>
      <p className="mt-2 text-slate-700">Every document of your scans and audits, newest first.</p>
      <div className="mt-6 max-w-sm">
        <Label htmlFor="reports-domain">Domain</Label>
        <NativeSelect
          id="reports-domain"
          value={domain ?? ''}
          onChange={(event) => setQuery({ domain: event.target.value || undefined })}
        >
          <option value="">All domains</option>
          {(data?.domains ?? (domain ? [domain] : [])).map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </NativeSelect>
      </div>
      {reports.isPending && <Spinner label="Loading your reports" />}
      {reports.isError && (
        <p role="alert" className="mt-6 rounded-md border border-bad p-4 text-bad">
          {messageOf(reports.error, 'Your reports could not be loaded.')}
        </p>
      )}
      {data && (
        <>
          <p role="status" className="mt-4 text-sm text-slate-700">
            {data.total} {data.total === 1 ? 'report' : 'reports'}
            {domain ? ` for ${domain}` : ''}
          </p>
          {data.items.length === 0 ? (
            <Card className="mt-4">
              <h2 className="text-lg font-bold">No reports yet</h2>
              <p className="mt-2 text-slate-700">Documents appear here once a scan completes.</p>
              <Button asChild className="mt-4">
                <Link to={paths.scan.getHref()}>Run Audit</Link>
              </Button>
            </Card>
          ) : (
            <ul className="mt-4 grid gap-4">
              {data.items.map((item) => {
                const context = `the ${item.kind} of ${item.url} on ${formatDateTime(item.date)}`;
                return (
                  <li key={item.id}>
                    <Card className="grid gap-3 p-4">
                      <div className="flex flex-wrap items-center justify-between gap-2">
                        <div className="min-w-0">
                          <h2 className="text-base font-bold break-all">
                            {item.reportId ? (
                              <Link
                                to={paths.report.getHref(item.reportId)}
                                className="text-brand-700 underline"
                              >
                                {item.url}
                              </Link>
                            ) : (
                              item.url
                            )}
                          </h2>
                          <p className="text-sm text-slate-700">
                            {item.kind === 'audit' ? 'Multi-page audit' : 'Scan'} of {item.domain} ·{' '}
                            {formatDateTime(item.date)}
                          </p>
                        </div>
                        <ScoreBadge score={item.score} />
                      </div>
                      <DocumentLinks links={item.documents} context={context} />
                    </Card>
                  </li>
                );
              })}
            </ul>
          )}
          {pages > 1 && (
            <nav aria-label="Report pages" className="mt-6 flex items-center gap-4">
              <Button
                type="button"
                variant="outline"
                disabled={page <= 1}
                onClick={() => setQuery({ domain, page: page - 1 })}
              >
                Previous
              </Button>
              <span className="text-sm">
                Page {page} of {pages}
              </span>
              <Button
                type="button"
                variant="outline"
                disabled={page >= pages}
                onClick={() => setQuery({ domain, page: page + 1 })}
              >
                Next
              </Button>
            </nav>
          )}
        </>
      )}
    </div>
  );
}
