import { ExternalLink } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { formatScoreWithLabel } from '#contract/vocabulary.js';
import {
  complaintNotesBlankMessage,
  complaintReplyBlankMessage,
  complaintStatuses,
  type Complaint,
  type ComplaintPage,
  type ComplaintStatus,
} from '#contract/complaint.js';
import { Button } from '../../../components/ui/button';
import { Checkbox } from '../../../components/ui/checkbox';
import { DialogContent, DialogDescription, DialogTitle } from '../../../components/ui/dialog';
import { Label } from '../../../components/ui/label';
import { NativeSelect } from '../../../components/ui/native-select';
import { Spinner } from '../../../components/ui/spinner';
import { Textarea } from '../../../components/ui/textarea';
import { messageOf } from '../../../lib/api-client';
import { paths } from '../../../lib/paths';
import { toast } from '../../../lib/toast-store';
import { useCurrentUserId } from '../api/current-user';
import {
  useAssignComplaint,
  useReplyToComplaint,
  useUpdateComplaintNotes,
  useUpdateComplaintStatus,
} from '../api/change-complaint';
import { useComplaint } from '../api/get-complaint';
import { useScanPage } from '../api/scan-page';
import { useAssignees } from '../api/team';
import { formatDate, formatDateTime, statusLabels, typeLabels } from '../labels';
import { PriorityBadge } from './priority-badge';
import { ResponseDeadline } from './response-deadline';

/**
 * One complaint (spec dashboard-area §2 details dialog, §5, §6, §8): the facts, the page it names
 * with that page's latest findings, the conversation, a reply (public or internal note), internal
 * notes and the status. Radix keeps focus inside, closes on Escape and gives focus back to the
 * row's button.
 */
export function ComplaintDetailsDialog({ id }: { id: string }) {
  const details = useComplaint(id);
  const complaint = details.data?.complaint;
  return (
    <DialogContent className="max-w-3xl">
      <DialogTitle>
        {complaint ? (complaint.subject ?? 'Complaint') : 'Complaint details'}
      </DialogTitle>
      {details.isPending && (
        <>
          <DialogDescription>Loading the complaint.</DialogDescription>
          <Spinner label="Loading the complaint" />
        </>
      )}
      {details.isError && (
        <>
          <DialogDescription>The complaint could not be loaded.</DialogDescription>
          <p role="alert" className="mt-4 text-bad">
            {messageOf(details.error, 'The complaint could not be loaded.')}
          </p>
        </>
      )}
      {complaint && details.data && (
        <>
          <DialogDescription>
            {typeLabels[complaint.type]} concern about {complaint.domain}, received{' '}
            {formatDateTime(complaint.createdAt)}.
          </DialogDescription>
          <Facts complaint={complaint} />
          <NamedPage page={details.data.page} />
          <Conversation complaint={complaint} />
          {complaint.actionable ? (
            <>
              <ReplyForm id={complaint.id} />
              <NotesForm complaint={complaint} />
              <StatusForm complaint={complaint} />
            </>
          ) : (
            <p role="note" className="rounded-md border border-slate-400 p-3 text-sm">
              You no longer hold {complaint.domain} verified, so this concern is read only:
              answering or changing it needs current ownership. Verify the domain on the Domains
              page to take it up again.
            </p>
          )}
        </>
      )}
    </DialogContent>
  );
}

function Facts({ complaint }: { complaint: Complaint }) {
  const userId = useCurrentUserId();
  const assign = useAssignComplaint(complaint.id);
  const assignees = useAssignees();
  const from = complaint.submitterName
    ? `${complaint.submitterName} <${complaint.submitterEmail}>`
    : complaint.submitterEmail;
  const mine = userId !== undefined && complaint.assignedTo === userId;
  const assignee = assignees.everyone.find((member) => member.userId === complaint.assignedTo);
  const assignedText =
    complaint.assignedTo === null
      ? 'Nobody'
      : mine
        ? 'You'
        : ((assignee?.name || assignee?.email) ?? 'Someone no longer in the team');
  const onAssign = async (assignedTo: string | null) => {
    try {
      await assign.mutateAsync({ assignedTo });
      const chosen = assignees.members.find((member) => member.userId === assignedTo);
      toast({
        title: assignedTo === null ? 'Complaint Unassigned' : 'Complaint Assigned',
        description:
          assignedTo === null
            ? 'Nobody is assigned now.'
            : assignedTo === userId
              ? 'The complaint is assigned to you.'
              : `The complaint is assigned to ${chosen?.email ?? 'them'}, who is e-mailed.`,
        variant: 'success',
      });
    } catch (error) {
      toast({
        title: 'Failed to assign complaint',
        description: messageOf(error, 'Please try again.'),
        variant: 'destructive',
      });
    }
  };
  return (
    <dl className="mt-4 grid gap-x-6 gap-y-2 text-sm sm:grid-cols-[auto_1fr]">
      <dt className="font-semibold">From</dt>
      <dd>
        <a className="text-brand-700 underline" href={`mailto:${complaint.submitterEmail}`}>
          {from}
        </a>
      </dd>
      <dt className="font-semibold">Priority</dt>
      <dd>
        <PriorityBadge priority={complaint.priority} />
      </dd>
      <dt className="font-semibold">Status</dt>
      <dd>{statusLabels[complaint.status]}</dd>
      <dt className="font-semibold">Response</dt>
      <dd>
        <ResponseDeadline complaint={complaint} />
      </dd>
      <dt className="font-semibold">Assigned to</dt>
      <dd className="flex flex-wrap items-center gap-3">
        {assignees.canAssign && complaint.actionable ? (
          <div className="min-w-56">
            <Label htmlFor={`assignee-${complaint.id}`} className="sr-only">
              Assign to
            </Label>
            <NativeSelect
              id={`assignee-${complaint.id}`}
              value={complaint.assignedTo ?? ''}
              disabled={assign.isPending}
              onChange={(event) => void onAssign(event.target.value || null)}
            >
              <option value="">Nobody</option>
              {assignees.members.map((member) => (
                <option key={member.userId} value={member.userId}>
                  {member.userId === userId ? `You (${member.email})` : member.email}
                </option>
              ))}
            </NativeSelect>
          </div>
        ) : (
          assignedText
        )}
      </dd>
      <dt className="font-semibold">Message</dt>
      <dd className="whitespace-pre-wrap">{complaint.message}</dd>
    </dl>
  );
}

/** Beyond the spec: the page the visitor names, its latest scan and its worst findings. */
function NamedPage({ page }: { page: ComplaintPage | null }) {
  const scan = useScanPage();
  const [startedId, setStartedId] = useState<string | undefined>();
  if (!page) {
    return (
      <section aria-labelledby="named-page-heading" className="mt-6">
        <h3 id="named-page-heading" className="text-lg font-semibold">
          Page
        </h3>
        <p className="mt-1 text-sm text-slate-700">The visitor did not name a page.</p>
      </section>
    );
  }
  const runningId = startedId ?? page.pendingScanId ?? undefined;
  const onScan = async () => {
    try {
      const { id } = await scan.mutateAsync(page.url);
      setStartedId(id);
      toast({
        title: 'Scan Started',
        description: 'Website analysis is in progress. Results will appear shortly.',
        variant: 'success',
      });
    } catch (error) {
      toast({
        title: 'Scan Failed',
        description: messageOf(error, 'Unable to start website scan. Please try again.'),
        variant: 'destructive',
      });
    }
  };
  return (
    <section aria-labelledby="named-page-heading" className="mt-6">
      <h3 id="named-page-heading" className="text-lg font-semibold">
        Page
      </h3>
      <p className="mt-1 text-sm break-all">
        <a
          href={page.url}
          target="_blank"
          rel="noopener noreferrer"
          className="inline-flex items-center gap-1 text-brand-700 underline"
        >
          {page.url}
          <ExternalLink aria-hidden="true" className="h-4 w-4 shrink-0" />
          <span className="sr-only">(opens in a new tab)</span>
        </a>
      </p>
      {page.scan ? (
        <div className="mt-2">
          <p className="text-sm">
            Latest scan
            {page.scan.completedAt ? ` of ${formatDate(page.scan.completedAt)}` : ''}: score{' '}
            {formatScoreWithLabel(page.scan.accessibilityScore)}, {page.scan.totalIssues} issue
            {page.scan.totalIssues === 1 ? '' : 's'}.{' '}
            <Link
              to={paths.report.getHref(page.scan.id)}
              className="font-semibold text-brand-700 underline"
            >
              Open the page's report
            </Link>
          </p>
          {page.findings.length > 0 && (
            <>
              <h4 className="mt-3 text-sm font-semibold">Top findings on this page</h4>
              <ul className="mt-1 grid gap-1 text-sm">
                {page.findings.map((finding, index) => (
                  <li key={`${finding.selector}-${index}`}>
                    <span className="font-semibold capitalize">{finding.impact}</span>:{' '}
                    {finding.title}{' '}
                    <code className="rounded bg-slate-100 px-1 text-xs break-all">
                      {finding.selector}
                    </code>
                  </li>
                ))}
              </ul>
            </>
          )}
        </div>
      ) : runningId ? (
        <p className="mt-2 text-sm">
          A scan of this page is under way.{' '}
          <Link
            to={paths.report.getHref(runningId)}
            className="font-semibold text-brand-700 underline"
          >
            Follow the scan
          </Link>
        </p>
      ) : (
        <div className="mt-2 flex flex-wrap items-center gap-3">
          <p className="text-sm text-slate-700">This page was never scanned.</p>
          <Button size="sm" onClick={onScan} disabled={scan.isPending}>
            {scan.isPending ? 'Starting…' : 'Scan this page now'}
          </Button>
        </div>
      )}
    </section>
  );
}

function Conversation({ complaint }: { complaint: Complaint }) {
  return (
    <section aria-labelledby="conversation-heading" className="mt-6">
      <h3 id="conversation-heading" className="text-lg font-semibold">
        Conversation
      </h3>
      <ol className="mt-2 grid gap-2">
        {complaint.conversation.map((entry) => (
          <li
            key={entry.id}
            className={`rounded-md border p-3 text-sm ${entry.isInternal ? 'border-amber-300 bg-amber-50' : 'border-slate-200 bg-white'}`}
          >
            <p className="flex flex-wrap items-center gap-2 text-slate-700">
              <span className="font-semibold text-slate-900">{entry.author}</span>
              <time dateTime={entry.timestamp}>{formatDateTime(entry.timestamp)}</time>
              {entry.isInternal && (
                <span className="rounded-full bg-amber-200 px-2 py-0.5 text-xs font-bold text-amber-950">
                  Internal note
                </span>
              )}
            </p>
            <p className="mt-1 whitespace-pre-wrap">{entry.message}</p>
          </li>
        ))}
      </ol>
    </section>
  );
}

function ReplyForm({ id }: { id: string }) {
  const send = useReplyToComplaint(id);
  const [message, setMessage] = useState('');
  const [internal, setInternal] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const fieldId = useId();
  const internalId = useId();
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (send.isPending) return;
    if (message.trim() === '') {
      setError(complaintReplyBlankMessage);
      return;
    }
    setError(undefined);
    try {
      await send.mutateAsync({ message, isInternal: internal });
      toast({
        title: 'Reply Sent',
        description: internal
          ? 'The internal note was added to the conversation.'
          : 'The visitor was sent your reply by e-mail.',
        variant: 'success',
      });
      setMessage('');
      setInternal(false);
    } catch (failure) {
      toast({
        title: 'Failed to send reply',
        description: messageOf(failure, 'Please try again.'),
        variant: 'destructive',
      });
    }
  };
  return (
    <form noValidate onSubmit={onSubmit} className="mt-6 grid gap-2">
      <Label htmlFor={fieldId} className="text-lg font-semibold">
        Reply
      </Label>
      <Textarea
        id={fieldId}
        rows={4}
        value={message}
        onChange={(event) => setMessage(event.target.value)}
        aria-invalid={!!error}
        aria-describedby={error ? `${fieldId}-error` : undefined}
        maxLength={5000}
      />
      {error && (
        <p id={`${fieldId}-error`} className="text-sm font-medium text-bad">
          {error}
        </p>
      )}
      <div className="flex items-center gap-2">
        <Checkbox
          id={internalId}
          checked={internal}
          onCheckedChange={(checked) => setInternal(checked === true)}
        />
        <Label htmlFor={internalId} className="font-normal">
          Internal note only
        </Label>
      </div>
      <p className="text-sm text-slate-700">
        {internal
          ? 'Only your team sees an internal note; nothing is e-mailed.'
          : 'The visitor receives this reply by e-mail.'}
      </p>
      <div>
        <Button type="submit" aria-disabled={send.isPending}>
          {send.isPending ? 'Sending…' : internal ? 'Add internal note' : 'Send reply'}
        </Button>
      </div>
    </form>
  );
}

function NotesForm({ complaint }: { complaint: Complaint }) {
  const save = useUpdateComplaintNotes(complaint.id);
  const [notes, setNotes] = useState(complaint.internalNotes ?? '');
  const [error, setError] = useState<string | undefined>();
  const fieldId = useId();
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (save.isPending) return;
    if (notes.trim() === '') {
      setError(complaintNotesBlankMessage);
      return;
    }
    setError(undefined);
    try {
      await save.mutateAsync({ notes });
      toast({
        title: 'Notes Added',
        description: 'The internal notes were saved.',
        variant: 'success',
      });
    } catch (failure) {
      toast({
        title: 'Failed to add notes',
        description: messageOf(failure, 'Please try again.'),
        variant: 'destructive',
      });
    }
  };
  return (
    <form noValidate onSubmit={onSubmit} className="mt-6 grid gap-2">
      <Label htmlFor={fieldId} className="text-lg font-semibold">
        Internal notes
      </Label>
      <Textarea
        id={fieldId}
        rows={3}
        value={notes}
        onChange={(event) => setNotes(event.target.value)}
        aria-invalid={!!error}
        aria-describedby={error ? `${fieldId}-error` : `${fieldId}-hint`}
        maxLength={5000}
      />
      <p id={`${fieldId}-hint`} className="text-sm text-slate-700">
        Never shown to the visitor.
      </p>
      {error && (
        <p id={`${fieldId}-error`} className="text-sm font-medium text-bad">
          {error}
        </p>
      )}
      <div>
        <Button type="submit" variant="outline" aria-disabled={save.isPending}>
          {save.isPending ? 'Saving…' : 'Save notes'}
        </Button>
      </div>
    </form>
  );
}

function StatusForm({ complaint }: { complaint: Complaint }) {
  const update = useUpdateComplaintStatus(complaint.id);
  const [status, setStatus] = useState<ComplaintStatus>(complaint.status);
  const fieldId = useId();
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (update.isPending) return;
    try {
      await update.mutateAsync({ status });
      toast({
        title: 'Status Updated',
        description: `The complaint is now ${statusLabels[status]}.`,
        variant: 'success',
      });
    } catch (failure) {
      toast({
        title: 'Failed to update complaint status',
        description: messageOf(failure, 'Please try again.'),
        variant: 'destructive',
      });
    }
  };
  return (
    <form onSubmit={onSubmit} className="mt-6 grid gap-2">
      <Label htmlFor={fieldId} className="text-lg font-semibold">
        Status
      </Label>
      <div className="flex flex-wrap gap-2">
        <div className="min-w-48">
          <NativeSelect
            id={fieldId}
            value={status}
            onChange={(event) => setStatus(event.target.value as ComplaintStatus)}
          >
            {complaintStatuses.map((value) => (
              <option key={value} value={value}>
                {statusLabels[value]}
              </option>
            ))}
          </NativeSelect>
        </div>
        <Button type="submit" aria-disabled={update.isPending}>
          {update.isPending ? 'Updating…' : 'Update'}
        </Button>
      </div>
    </form>
  );
}
