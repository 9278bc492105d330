import { Link, useSearchParams } from 'react-router';
import {
  auditActionLabels,
  auditActions,
  type AuditAction,
  type AuditLogEntry,
} from '#contract/audit-log.js';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { NativeSelect } from '../../../components/ui/native-select';
import { Spinner } from '../../../components/ui/spinner';
import { messageOf } from '../../../lib/api-client';
import { usePageTitle } from '../../../lib/page-title';
import { paths } from '../../../lib/paths';
import { auditLogCsvHref, useAuditLog, type AuditLogFilters } from '../api/get-audit-log';
import { ScrollRegion } from '../../../components/scroll-region';

const dayPattern = /^\d{4}-\d{2}-\d{2}$/;

const isAction = (value: string | null): value is AuditAction =>
  value !== null && (auditActions as readonly string[]).includes(value);

const when = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });

/** What an entry was done to, in words: "domain example.com", "complaint 3f2a…". */
function targetText(entry: AuditLogEntry): string {
  if (!entry.target) return '—';
  const { type, id } = entry.target;
  const shown = /^[0-9a-f-]{36}$/.test(id) ? `${id.slice(0, 8)}…` : id;
  return `${type.replace('_', '-')} ${shown}`;
}

/** The details that say most about an entry, in a short line. */
function detailsText(entry: AuditLogEntry): string {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(entry.details)) {
    if (value === null || typeof value === 'object') continue;
    parts.push(`${key}: ${String(value)}`);
    if (parts.length === 3) break;
  }
  return parts.join(', ');
}

/**
 * Settings → Audit log: who did what and when in the organisation, newest first, filtered by
 * action and by days through the address, 50 to a page, and the same entries as a CSV file.
 * Owners and admins only; the server answers anyone else with a 403, shown here as it says.
 */
export function AuditLogPage() {
  usePageTitle('Audit log');
  const [params, setParams] = useSearchParams();
  const actionParam = params.get('action');
  const filters: AuditLogFilters = {
    action: isAction(actionParam) ? actionParam : undefined,
    from: dayPattern.test(params.get('from') ?? '') ? params.get('from')! : undefined,
    to: dayPattern.test(params.get('to') ?? '') ? params.get('to')! : undefined,
  };
  const page = Math.max(1, Number(params.get('page')) || 1);
  const log = useAuditLog(filters, page);
  const setQuery = (next: AuditLogFilters & { page?: number }) => {
    const query: Record<string, string> = {};
    if (next.action) query['action'] = next.action;
    if (next.from) query['from'] = next.from;
    if (next.to) query['to'] = next.to;
    if (next.page && next.page > 1) query['page'] = String(next.page);
    setParams(query);
  };
  const data = log.data;
  const pages = data ? Math.max(1, Math.ceil(data.total / data.pageSize)) : 1;

  return (
    <div className="mx-auto max-w-6xl px-4 py-8">
      <p className="text-sm">
        <Link to={paths.dashboardSettings.getHref()} className="text-brand-700 underline">
          Settings
        </Link>
      </p>
      <h1 className="mt-1 text-3xl font-bold">Audit log</h1>
      <p className="mt-2 text-slate-700">
        Who did what and when in your organisation: domains, badge, complaints, members, API tokens
        and payments. Kept for as long as the organisation exists.
      </p>

      <form
        className="mt-6 grid gap-4 sm:grid-cols-[1fr_auto_auto] sm:items-end"
        aria-label="Filter the audit log"
        onSubmit={(event) => event.preventDefault()}
      >
        <div>
          <Label htmlFor="audit-log-action">Action</Label>
          <NativeSelect
            id="audit-log-action"
            value={filters.action ?? ''}
            onChange={(event) =>
              setQuery({
                ...filters,
                action: isAction(event.target.value) ? event.target.value : undefined,
              })
            }
          >
            <option value="">All actions</option>
            {auditActions.map((action) => (
              <option key={action} value={action}>
                {auditActionLabels[action]}
              </option>
            ))}
          </NativeSelect>
        </div>
        <div>
          <Label htmlFor="audit-log-from">From</Label>
          <Input
            id="audit-log-from"
            type="date"
            value={filters.from ?? ''}
            max={filters.to}
            onChange={(event) => setQuery({ ...filters, from: event.target.value || undefined })}
          />
        </div>
        <div>
          <Label htmlFor="audit-log-to">To</Label>
          <Input
            id="audit-log-to"
            type="date"
            value={filters.to ?? ''}
            min={filters.from}
            onChange={(event) => setQuery({ ...filters, to: event.target.value || undefined })}
          />
        </div>
      </form>

      {log.isPending && <Spinner label="Loading the audit log" />}
      {log.isError && (
        <p role="alert" className="mt-6 rounded-md border border-bad p-4 text-bad">
          {messageOf(log.error, 'The audit log could not be loaded.')}
        </p>
      )}
      {data && (
        <>
          <div className="mt-6 flex flex-wrap items-center justify-between gap-3">
            <p role="status" className="text-sm text-slate-700">
              {data.total} {data.total === 1 ? 'entry' : 'entries'}
              {filters.action ? ` for “${auditActionLabels[filters.action]}”` : ''}
            </p>
            <Button asChild variant="outline">
              <a href={auditLogCsvHref(filters)} download>
                Download CSV
              </a>
            </Button>
          </div>
          {data.entries.length === 0 ? (
            <Card className="mt-4">
              <h2 className="text-lg font-bold">No entries</h2>
              <p className="mt-2 text-slate-700">
                Changes to domains, the badge, complaints, members, tokens and payments appear here
                as they happen.
              </p>
            </Card>
          ) : (
            // Scrolls sideways on a phone: focusable and named so a keyboard can scroll it.
            <ScrollRegion
              label="Audit log entries"
              className="mt-4 rounded-md border border-slate-300"
            >
              <table className="w-full border-collapse text-left text-sm">
                <caption className="sr-only">
                  Audit log entries, newest first, page {page} of {pages}
                </caption>
                <thead className="bg-slate-100">
                  <tr>
                    <th scope="col" className="px-3 py-2">
                      Time
                    </th>
                    <th scope="col" className="px-3 py-2">
                      Who
                    </th>
                    <th scope="col" className="px-3 py-2">
                      What
                    </th>
                    <th scope="col" className="px-3 py-2">
                      Target
                    </th>
                    <th scope="col" className="px-3 py-2">
                      Details
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {data.entries.map((entry) => (
                    <tr key={entry.id} className="border-t border-slate-200 align-top">
                      <td className="px-3 py-2 whitespace-nowrap">
                        <time dateTime={entry.at}>{when.format(new Date(entry.at))}</time>
                      </td>
                      <td className="px-3 py-2 break-all">{entry.actor}</td>
                      <th scope="row" className="px-3 py-2 font-medium">
                        {entry.actionLabel}
                      </th>
                      <td className="px-3 py-2 break-all">{targetText(entry)}</td>
                      <td className="px-3 py-2 break-words text-slate-700">{detailsText(entry)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </ScrollRegion>
          )}
          {pages > 1 && (
            <nav aria-label="Audit log pages" className="mt-6 flex items-center gap-4">
              <Button
                type="button"
                variant="outline"
                disabled={page <= 1}
                onClick={() => setQuery({ ...filters, page: page - 1 })}
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
                onClick={() => setQuery({ ...filters, page: page + 1 })}
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
