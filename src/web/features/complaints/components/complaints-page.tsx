import { Search } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import {
  complaintPageSizeDefault,
  complaintStatuses,
  complaintTypes,
  type Complaint,
  type ComplaintCounts,
  type ComplaintStatus,
  type ComplaintType,
} from '#contract/complaint.js';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Dialog, DialogTrigger } from '../../../components/ui/dialog';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { NativeSelect } from '../../../components/ui/native-select';
import { Spinner } from '../../../components/ui/spinner';
import { messageOf } from '../../../lib/api-client';
import { usePageTitle } from '../../../lib/page-title';
import { useComplaintList, type ComplaintListFilter } from '../api/list-complaints';
import { formatDate, statusLabels, typeLabels } from '../labels';
import { ComplaintDetailsDialog } from './complaint-details-dialog';
import { PriorityBadge } from './priority-badge';
import { ResponseDeadline } from './response-deadline';

const counterLabels: [keyof ComplaintCounts, string][] = [
  ['total', 'Total'],
  ['new', 'New'],
  ['inProgress', 'In Progress'],
  ['urgent', 'Urgent'],
];

/**
 * Complaints Management (spec dashboard-area §2): counters, filters (domain, status, type), a
 * search over subject, message and e-mail, the list with priority colours and response deadlines,
 * and a details dialog per complaint.
 */
export function ComplaintsPage() {
  usePageTitle('Complaints');
  const [filter, setFilter] = useState<ComplaintListFilter>({
    page: 1,
    limit: complaintPageSizeDefault,
  });
  const [searchText, setSearchText] = useState('');
  const list = useComplaintList(filter);

  const change = (next: Partial<ComplaintListFilter>) =>
    setFilter((current) => ({ ...current, ...next, page: next.page ?? 1 }));

  const onSearch = (event: FormEvent) => {
    event.preventDefault();
    change({ search: searchText.trim() || undefined });
  };

  const data = list.data;
  const first = data ? data.offset + 1 : 0;
  const last = data ? data.offset + data.complaints.length : 0;

  return (
    <div className="mx-auto max-w-6xl px-4 py-10">
      <h1 className="text-3xl font-bold">Complaints</h1>
      <p className="mt-2 text-slate-700">
        Concerns visitors reported on the public status pages of your domains.
      </p>

      <section aria-labelledby="counters-heading" className="mt-6">
        <h2 id="counters-heading" className="sr-only">
          Counters
        </h2>
        <dl className="grid grid-cols-2 gap-4 md:grid-cols-4">
          {counterLabels.map(([key, label]) => (
            <Card key={key} className="p-4">
              <dt className="text-sm font-semibold text-slate-700">{label}</dt>
              <dd className="mt-1 text-3xl font-bold">{data ? data.counts[key] : '–'}</dd>
            </Card>
          ))}
        </dl>
      </section>

      <section aria-labelledby="filters-heading" className="mt-8">
        <h2 id="filters-heading" className="sr-only">
          Filters and search
        </h2>
        <div className="grid gap-4 md:grid-cols-[1fr_1fr_1fr_1fr_2fr] md:items-end">
          <div className="grid gap-1.5">
            <Label htmlFor="complaint-domain">Domain</Label>
            <NativeSelect
              id="complaint-domain"
              value={filter.domain ?? ''}
              onChange={(event) => change({ domain: event.target.value || undefined })}
            >
              <option value="">All domains</option>
              {data?.domains.map((domain) => (
                <option key={domain} value={domain}>
                  {domain}
                </option>
              ))}
            </NativeSelect>
          </div>
          <div className="grid gap-1.5">
            <Label htmlFor="complaint-status">Status</Label>
            <NativeSelect
              id="complaint-status"
              value={filter.status ?? ''}
              onChange={(event) =>
                change({ status: (event.target.value || undefined) as ComplaintStatus | undefined })
              }
            >
              <option value="">All statuses</option>
              {complaintStatuses.map((status) => (
                <option key={status} value={status}>
                  {statusLabels[status]}
                </option>
              ))}
            </NativeSelect>
          </div>
          <div className="grid gap-1.5">
            <Label htmlFor="complaint-type">Type</Label>
            <NativeSelect
              id="complaint-type"
              value={filter.type ?? ''}
              onChange={(event) =>
                change({ type: (event.target.value || undefined) as ComplaintType | undefined })
              }
            >
              <option value="">All types</option>
              {complaintTypes.map((type) => (
                <option key={type} value={type}>
                  {typeLabels[type]}
                </option>
              ))}
            </NativeSelect>
          </div>
          <div className="grid gap-1.5">
            <Label htmlFor="complaint-assignee">Assigned</Label>
            <NativeSelect
              id="complaint-assignee"
              value={filter.assignedTo ?? ''}
              onChange={(event) =>
                change({ assignedTo: event.target.value === 'me' ? 'me' : undefined })
              }
            >
              <option value="">To anyone or nobody</option>
              <option value="me">Assigned to me</option>
            </NativeSelect>
          </div>
          <form role="search" onSubmit={onSearch} className="grid gap-1.5">
            <Label htmlFor="complaint-search">Search complaints</Label>
            <div className="flex gap-2">
              <Input
                id="complaint-search"
                type="search"
                value={searchText}
                onChange={(event) => setSearchText(event.target.value)}
                placeholder="Subject, message or e-mail"
                maxLength={200}
              />
              <Button type="submit" variant="outline">
                <Search aria-hidden="true" className="h-4 w-4" />
                Search
              </Button>
            </div>
          </form>
        </div>
      </section>

      <section aria-labelledby="list-heading" className="mt-8">
        <h2 id="list-heading" className="text-xl font-bold">
          Complaint list
        </h2>
        {list.isPending && <Spinner label="Loading complaints" />}
        {list.isError && (
          <p role="alert" className="mt-4 text-bad">
            {messageOf(list.error, 'Complaints could not be loaded.')}
          </p>
        )}
        {data && (
          <p role="status" className="mt-2 text-sm text-slate-700">
            {data.total === 0
              ? 'No complaints match.'
              : `Showing ${first}–${last} of ${data.total} complaint${data.total === 1 ? '' : 's'}.`}
          </p>
        )}
        {data && data.complaints.length > 0 && (
          <ul className="mt-4 grid gap-3">
            {data.complaints.map((complaint) => (
              <ComplaintRow key={complaint.id} complaint={complaint} />
            ))}
          </ul>
        )}
        {data && data.total > data.limit && (
          <nav aria-label="Complaint pages" className="mt-6 flex items-center gap-3">
            <Button
              variant="outline"
              disabled={filter.page <= 1}
              onClick={() => change({ page: filter.page - 1 })}
            >
              Previous page
            </Button>
            <span className="text-sm text-slate-700">
              Page {filter.page} of {Math.ceil(data.total / data.limit)}
            </span>
            <Button
              variant="outline"
              disabled={last >= data.total}
              onClick={() => change({ page: filter.page + 1 })}
            >
              Next page
            </Button>
          </nav>
        )}
      </section>
    </div>
  );
}

function ComplaintRow({ complaint }: { complaint: Complaint }) {
  const [open, setOpen] = useState(false);
  const title = complaint.subject ?? 'Complaint';
  return (
    <li>
      <Card
        className={`grid gap-3 p-4 md:grid-cols-[1fr_auto] md:items-center ${complaint.overdue ? 'border-l-4 border-l-bad' : ''}`}
      >
        <div className="min-w-0">
          <div className="flex flex-wrap items-center gap-2">
            <PriorityBadge priority={complaint.priority} />
            <span className="rounded-full border border-slate-300 bg-slate-50 px-2 py-0.5 text-xs font-semibold text-slate-800">
              {statusLabels[complaint.status]}
            </span>
            <span className="text-xs font-semibold text-slate-700">
              {typeLabels[complaint.type]}
            </span>
          </div>
          <h3 className="mt-2 font-semibold">{title}</h3>
          <p className="mt-1 line-clamp-2 text-sm text-slate-800">{complaint.message}</p>
          {complaint.pageUrl && (
            <p className="mt-1 text-sm break-all text-slate-700">Page: {complaint.pageUrl}</p>
          )}
          <p className="mt-1 text-sm text-slate-700">
            {complaint.domain} · {complaint.submitterEmail} · received{' '}
            {formatDate(complaint.createdAt)}
          </p>
          <div className="mt-1">
            <ResponseDeadline complaint={complaint} />
          </div>
        </div>
        <Dialog open={open} onOpenChange={setOpen}>
          <DialogTrigger asChild>
            <Button variant="outline">
              View details<span className="sr-only">: {title}</span>
            </Button>
          </DialogTrigger>
          {open && <ComplaintDetailsDialog id={complaint.id} />}
        </Dialog>
      </Card>
    </li>
  );
}
