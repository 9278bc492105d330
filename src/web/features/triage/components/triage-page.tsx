import { useId, useMemo, useRef, useState, type FormEvent } from 'react';
import type { TeamMember } from '#contract/team.js';
import {
  triageStateLabels,
  triageStates,
  type TriageChangeRequest,
  type TriageIssue,
  type TriageListResponse,
  type TriageState,
} from '#contract/triage.js';
import { formatDate } from '#contract/vocabulary.js';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Checkbox } from '../../../components/ui/checkbox';
import { FormField } from '../../../components/ui/form-field';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { NativeSelect } from '../../../components/ui/native-select';
import { Spinner } from '../../../components/ui/spinner';
import { Textarea } from '../../../components/ui/textarea';
import {
  useChangeTriage,
  useTeamAndMe,
  useTriage,
  useTriageHistory,
} from '../../../api/triage/triage';
import { DomainSubpage } from '../../../components/domain-subpage';
import { SendToGithub } from '../../../components/issues/issue-actions';
import { impactClasses } from '../../../components/issues/issue-explorer';
import { messageOf } from '../../../lib/api-client';
import { addressInSite } from '../../../lib/address-in-site';

const stateClass: Record<TriageState, string> = {
  open: 'border-slate-500 text-slate-900',
  false_positive: 'border-slate-500 bg-slate-100 text-slate-900',
  accepted: 'border-amber-700 bg-amber-50 text-amber-900',
  fixed: 'border-green-700 bg-green-50 text-green-900',
  reopened: 'border-red-700 bg-red-50 text-red-900',
};

/**
 * The triage of a domain's issues (ADR 0033): every issue in the latest scan of each page with
 * its state, chosen one by one or together and marked a false positive, accepted (won't fix),
 * open again or assigned. False positives are hidden until asked for; they no longer count in
 * the domain's score and counts, but stay in the exports.
 */
export function TriagePage() {
  return (
    <DomainSubpage
      title="Triage"
      heading="Triage"
      useData={useTriage}
      loading="Loading the issues"
      notFound="This domain is not one of yours."
      failed="The issues could not be loaded."
    >
      {(domain, data) => <TriageContent domain={domain} data={data} />}
    </DomainSubpage>
  );
}

type StateFilter = TriageState | 'all';

function TriageContent({ domain, data }: { domain: string; data: TriageListResponse }) {
  const team = useTeamAndMe();
  const me = team.data?.me;
  const [stateFilter, setStateFilter] = useState<StateFilter>('all');
  const [showFalsePositives, setShowFalsePositives] = useState(false);
  const [mineOnly, setMineOnly] = useState(false);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const formHeading = useRef<HTMLHeadingElement>(null);
  const ids = useId();

  const hiddenFalsePositives = data.issues.filter((i) => i.state === 'false_positive').length;
  const shown = useMemo(
    () =>
      data.issues.filter(
        (issue) =>
          (stateFilter === 'all' ? true : issue.state === stateFilter) &&
          (showFalsePositives ||
            stateFilter === 'false_positive' ||
            issue.state !== 'false_positive') &&
          (!mineOnly || (me !== undefined && issue.triage?.assignee?.id === me.userId)),
      ),
    [data.issues, stateFilter, showFalsePositives, mineOnly, me],
  );
  const chosen = data.issues.filter((issue) => selected.has(issue.issueKey));
  const canChange = me === undefined || me.role !== 'viewer';

  const toggle = (key: string, on: boolean) =>
    setSelected((previous) => {
      const next = new Set(previous);
      if (on) next.add(key);
      else next.delete(key);
      return next;
    });

  return (
    <div className="mt-4 grid grid-cols-1 gap-6">
      <p className="text-slate-700">
        Issues marked false positive leave {domain}&apos;s score and issue counts; they stay in the
        CSV export and the evidence, marked as such. Accepted issues still count.
      </p>
      <Card>
        <fieldset className="flex flex-wrap items-end gap-4">
          <legend className="mb-2 text-lg font-bold">Show</legend>
          <div className="grid gap-1.5">
            <Label htmlFor={`${ids}-state`}>State</Label>
            <NativeSelect
              id={`${ids}-state`}
              value={stateFilter}
              onChange={(event) => setStateFilter(event.target.value as StateFilter)}
              className="w-56"
            >
              <option value="all">Every state</option>
              {triageStates.map((state) => (
                <option key={state} value={state}>
                  {triageStateLabels[state]}
                </option>
              ))}
            </NativeSelect>
          </div>
          <div className="flex items-center gap-2 pb-2">
            <Checkbox
              id={`${ids}-fp`}
              checked={showFalsePositives}
              onCheckedChange={(value) => setShowFalsePositives(value === true)}
            />
            <Label htmlFor={`${ids}-fp`}>Show false positives ({hiddenFalsePositives})</Label>
          </div>
          <div className="flex items-center gap-2 pb-2">
            <Checkbox
              id={`${ids}-mine`}
              checked={mineOnly}
              onCheckedChange={(value) => setMineOnly(value === true)}
            />
            <Label htmlFor={`${ids}-mine`}>Assigned to me</Label>
          </div>
        </fieldset>
      </Card>

      <Card>
        <section aria-labelledby={`${ids}-issues`}>
          <h2 id={`${ids}-issues`} className="text-xl font-bold">
            Issues ({shown.length} of {data.issues.length})
          </h2>
          {shown.length === 0 ? (
            <p className="mt-3 text-slate-700">No issues match.</p>
          ) : (
            <ul className="mt-3 grid gap-3">
              {shown.map((issue) => (
                <IssueRow
                  key={issue.issueKey}
                  domain={domain}
                  issue={issue}
                  selected={selected.has(issue.issueKey)}
                  canChange={canChange}
                  onSelect={(on) => toggle(issue.issueKey, on)}
                  onTriage={() => {
                    setSelected(new Set([issue.issueKey]));
                    formHeading.current?.focus();
                  }}
                />
              ))}
            </ul>
          )}
        </section>
      </Card>

      {canChange && (
        <Card>
          <ChangeForm
            domain={domain}
            chosen={chosen}
            members={(team.data?.members ?? []).filter((m) => m.role !== 'viewer')}
            headingRef={formHeading}
            onDone={() => setSelected(new Set())}
          />
        </Card>
      )}
    </div>
  );
}

function IssueRow({
  domain,
  issue,
  selected,
  canChange,
  onSelect,
  onTriage,
}: {
  domain: string;
  issue: TriageIssue;
  selected: boolean;
  canChange: boolean;
  onSelect: (on: boolean) => void;
  onTriage: () => void;
}) {
  const id = useId();
  const [historyOpen, setHistoryOpen] = useState(false);
  const place = issue.places[0]!;
  const triage = issue.triage;
  return (
    <li className="rounded-md border border-slate-300 p-3">
      <div className="flex flex-wrap items-start gap-3">
        {canChange && (
          <Checkbox
            id={`${id}-select`}
            checked={selected}
            onCheckedChange={(value) => onSelect(value === true)}
            aria-labelledby={`${id}-select-label ${id}-title`}
            className="mt-1"
          />
        )}
        <span id={`${id}-select-label`} className="sr-only">
          Select
        </span>
        <div className="min-w-0 flex-1">
          <h3 id={`${id}-title`} className="font-semibold break-words">
            {issue.title}
          </h3>
          <p className="mt-1 flex flex-wrap items-center gap-2 text-sm">
            <span
              className={`rounded-full px-2 py-0.5 text-xs font-bold capitalize ${impactClasses[issue.impact]}`}
            >
              {issue.impact}
            </span>
            {issue.kind === 'needs-review' && (
              // A finding the engines could not decide: it asks a person to check, and is not
              // in the site's issue counts.
              <span className="rounded-full border border-slate-500 px-2 py-0.5 text-xs font-bold text-slate-800">
                Needs review
              </span>
            )}
            <span
              className={`rounded-full border px-2 py-0.5 text-xs font-bold ${stateClass[issue.state]}`}
            >
              {triageStateLabels[issue.state]}
            </span>
            {issue.wcag.length > 0 && (
              <span className="text-slate-700">WCAG {issue.wcag.join(', ')}</span>
            )}
            {triage?.assignee && (
              <span className="text-slate-700">
                Assigned to {triage.assignee.name || triage.assignee.email}
              </span>
            )}
          </p>
          <p className="mt-1 text-sm break-all text-slate-700">
            {addressInSite(place.url)} · <code>{place.selector}</code>
            {issue.places.length > 1 && ` and ${issue.places.length - 1} more`}
          </p>
          {triage?.note && issue.state === 'false_positive' && (
            <p className="mt-1 text-sm break-words">Note: {triage.note}</p>
          )}
          {triage?.reason && issue.state === 'accepted' && (
            <p className="mt-1 text-sm break-words">
              Reason: {triage.reason}
              {triage.acceptedUntil && ` (until ${formatDate(triage.acceptedUntil)})`}
            </p>
          )}
        </div>
        <div className="flex flex-wrap gap-2">
          {canChange && (
            <Button type="button" variant="outline" size="sm" onClick={onTriage}>
              Triage<span className="sr-only"> {issue.title}</span>
            </Button>
          )}
          {triage && (
            <Button
              type="button"
              variant="ghost"
              size="sm"
              aria-expanded={historyOpen}
              aria-controls={`${id}-history`}
              onClick={() => setHistoryOpen((open) => !open)}
            >
              History<span className="sr-only"> of {issue.title}</span>
            </Button>
          )}
        </div>
      </div>
      {canChange && (
        <div className="mt-2">
          <SendToGithub domain={domain} issueKeys={[issue.issueKey]} name={issue.title} />
        </div>
      )}
      {triage && historyOpen && (
        <History id={`${id}-history`} domain={domain} issueKey={issue.issueKey} />
      )}
    </li>
  );
}

function History({ id, domain, issueKey }: { id: string; domain: string; issueKey: string }) {
  const history = useTriageHistory(domain, issueKey, true);
  return (
    <div id={id} className="mt-3 border-t border-slate-200 pt-2">
      {history.isPending && <Spinner label="Loading the history" />}
      {history.isError && <p className="text-bad">{messageOf(history.error, 'No history.')}</p>}
      {history.data && (
        <ol className="grid gap-1 text-sm">
          {history.data.events.map((event, index) => (
            <li key={index}>
              {formatDate(event.at)}: {event.fromState ? triageStateLabels[event.fromState] : 'New'}{' '}
              → {triageStateLabels[event.toState]}
              {event.assignee && `, assigned to ${event.assignee.name || event.assignee.email}`}
              {' by '}
              {event.actor ? event.actor.name || event.actor.email : 'a scan'}
              {event.note && ` (“${event.note}”)`}
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}

type Action = TriageChangeRequest['action'];

const actionLabels: Record<Action, string> = {
  false_positive: 'Mark as false positive',
  accept: "Accept (won't fix)",
  open: 'Open again',
  assign: 'Assign',
};

function ChangeForm({
  domain,
  chosen,
  members,
  headingRef,
  onDone,
}: {
  domain: string;
  chosen: TriageIssue[];
  members: TeamMember[];
  headingRef: React.RefObject<HTMLHeadingElement | null>;
  onDone: () => void;
}) {
  const ids = useId();
  const change = useChangeTriage(domain);
  const [action, setAction] = useState<Action>('false_positive');
  const [note, setNote] = useState('');
  const [reason, setReason] = useState('');
  const [until, setUntil] = useState('');
  const [assignee, setAssignee] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [done, setDone] = useState('');

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setDone('');
    const found: Record<string, string> = {};
    if (chosen.length === 0) found.selection = 'Choose at least one issue in the list above';
    if (action === 'false_positive' && !note.trim())
      found.note = 'Say why this is a false positive';
    if (action === 'accept' && !reason.trim())
      found.reason = "Say why this is accepted (won't fix)";
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    const issueKeys = chosen.map((issue) => issue.issueKey);
    const request: TriageChangeRequest =
      action === 'false_positive'
        ? { action, issueKeys, note }
        : action === 'accept'
          ? { action, issueKeys, reason, until: until || null }
          : action === 'open'
            ? { action, issueKeys, note: note || null }
            : { action, issueKeys, assigneeId: assignee || null };
    try {
      await change.mutateAsync(request);
      setDone(
        `${actionLabels[action]}: done for ${issueKeys.length} ${issueKeys.length === 1 ? 'issue' : 'issues'}.`,
      );
      setNote('');
      setReason('');
      setUntil('');
      onDone();
    } catch (error) {
      setErrors({ form: messageOf(error, 'The change could not be saved.') });
    }
  };

  return (
    <form onSubmit={submit} noValidate aria-labelledby={`${ids}-heading`}>
      <h2 id={`${ids}-heading`} ref={headingRef} tabIndex={-1} className="text-xl font-bold">
        Change {chosen.length} selected {chosen.length === 1 ? 'issue' : 'issues'}
      </h2>
      {chosen.length > 0 && (
        <p className="mt-1 text-sm break-words text-slate-700">
          {chosen.map((issue) => issue.title).join('; ')}
        </p>
      )}
      {errors.selection && (
        <p id={`${ids}-selection-error`} className="mt-2 text-sm font-medium text-bad">
          {errors.selection}
        </p>
      )}
      <div className="mt-4 grid max-w-xl gap-4">
        <FormField label="Change">
          {(field) => (
            <NativeSelect
              {...field}
              aria-describedby={errors.selection ? `${ids}-selection-error` : undefined}
              value={action}
              onChange={(event) => {
                setAction(event.target.value as Action);
                setErrors({});
              }}
            >
              {(Object.keys(actionLabels) as Action[]).map((value) => (
                <option key={value} value={value}>
                  {actionLabels[value]}
                </option>
              ))}
            </NativeSelect>
          )}
        </FormField>
        {(action === 'false_positive' || action === 'open') && (
          <FormField
            label={action === 'false_positive' ? 'Why is it a false positive? (required)' : 'Note'}
            error={errors.note}
          >
            {(field) => (
              <Textarea {...field} value={note} onChange={(event) => setNote(event.target.value)} />
            )}
          </FormField>
        )}
        {action === 'accept' && (
          <>
            <FormField label="Reason (required)" error={errors.reason}>
              {(field) => (
                <Textarea
                  {...field}
                  value={reason}
                  onChange={(event) => setReason(event.target.value)}
                />
              )}
            </FormField>
            <FormField label="Accepted until" hint="Optional. On this day the issue re-opens.">
              {(field) => (
                <Input
                  {...field}
                  type="date"
                  value={until}
                  onChange={(event) => setUntil(event.target.value)}
                />
              )}
            </FormField>
          </>
        )}
        {action === 'assign' && (
          <FormField label="Assign to" hint="Only admins and owners assign issues.">
            {(field) => (
              <NativeSelect
                {...field}
                value={assignee}
                onChange={(event) => setAssignee(event.target.value)}
              >
                <option value="">Nobody</option>
                {members.map((member) => (
                  <option key={member.userId} value={member.userId}>
                    {member.name || member.email} ({member.email})
                  </option>
                ))}
              </NativeSelect>
            )}
          </FormField>
        )}
        {errors.form && (
          <p role="alert" className="text-sm font-medium text-bad">
            {errors.form}
          </p>
        )}
        <p role="status" className="text-sm text-emerald-900">
          {done}
        </p>
        <div>
          <Button type="submit" disabled={change.isPending}>
            Apply to {chosen.length} {chosen.length === 1 ? 'issue' : 'issues'}
          </Button>
        </div>
        <SendToGithub
          domain={domain}
          issueKeys={chosen.map((issue) => issue.issueKey)}
          label={`Send ${chosen.length} selected ${chosen.length === 1 ? 'issue' : 'issues'} to GitHub`}
        />
      </div>
    </form>
  );
}
