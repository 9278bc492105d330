import { useId, useState, type FormEvent } from 'react';
import type { TriageChangeRequest } from '#contract/triage.js';
import { triageStateLabels, type TriageState } from '#contract/triage-states.js';
import { useCreateGithubIssues } from '../../api/trackers/github';
import { useChangeTriage } from '../../api/triage/triage';
import { messageOf } from '../../lib/api-client';
import { paths } from '../../lib/paths';
import { Button } from '../ui/button';
import { FormField } from '../ui/form-field';
import { NativeSelect } from '../ui/native-select';
import { Textarea } from '../ui/textarea';
import { GithubIssueLinks } from './github-issue-links';

/**
 * Sends one issue, or a selection, of a monitored domain to GitHub (the triage screen and a
 * scan's report; the rules-and-pages screen has its own panel over the same call). What GitHub
 * made, or why nothing was sent, is said beside the button and stays there.
 */
export function SendToGithub({
  domain,
  issueKeys,
  label = 'Send to GitHub',
  name,
}: {
  domain: string;
  issueKeys: string[];
  label?: string;
  /** What the button sends, for a screen reader among many such buttons. */
  name?: string;
}) {
  const create = useCreateGithubIssues(domain);
  return (
    <div className="grid gap-1">
      <div>
        <Button
          type="button"
          variant="outline"
          size="sm"
          disabled={issueKeys.length === 0 || create.isPending}
          onClick={() => create.mutate(issueKeys)}
        >
          {create.isPending ? 'Sending to GitHub…' : label}
          {name && <span className="sr-only"> {name}</span>}
        </Button>
      </div>
      <div role="status" className="text-sm">
        <GithubIssueLinks result={create.data} />
      </div>
      {create.isError && (
        <p role="alert" className="text-sm font-medium text-bad">
          {messageOf(create.error, 'The GitHub issue could not be created.')}{' '}
          <a
            href={paths.dashboardIntegrations.getHref()}
            className="font-semibold text-brand-700 underline"
          >
            Integrations settings
          </a>
        </p>
      )}
    </div>
  );
}

type PersonAction = Exclude<TriageChangeRequest['action'], 'assign'>;

const actionLabels: Record<PersonAction, string> = {
  false_positive: 'Mark as false positive',
  accept: "Accept (won't fix)",
  open: 'Open again',
};

const doneLabels: Record<PersonAction, string> = {
  false_positive: 'Marked as a false positive',
  accept: "Accepted (won't fix)",
  open: 'Open again',
};

/**
 * One issue's triage state on its domain and, for those who may change it, a small form to mark
 * it a false positive (with a note), accept it (with a reason) or open it again: the same change
 * as the triage screen's, one issue at a time. Assigning stays on the triage screen.
 */
export function TriageControl({
  domain,
  issueKey,
  title,
  state,
  canChange,
}: {
  domain: string;
  issueKey: string;
  title: string;
  state: TriageState;
  canChange: boolean;
}) {
  const ids = useId();
  const change = useChangeTriage(domain);
  const [open, setOpen] = useState(false);
  const [action, setAction] = useState<PersonAction>(
    state === 'false_positive' || state === 'accepted' ? 'open' : 'false_positive',
  );
  const [text, setText] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [done, setDone] = useState('');

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setDone('');
    const note = text.trim();
    if (action === 'false_positive' && !note) {
      setError('Say why this is a false positive');
      return;
    }
    if (action === 'accept' && !note) {
      setError("Say why this is accepted (won't fix)");
      return;
    }
    setError(undefined);
    const issueKeys = [issueKey];
    const request: TriageChangeRequest =
      action === 'false_positive'
        ? { action, issueKeys, note }
        : action === 'accept'
          ? { action, issueKeys, reason: note, until: null }
          : { action, issueKeys, note: note || null };
    try {
      await change.mutateAsync(request);
      setDone(`${doneLabels[action]}.`);
      setText('');
      setOpen(false);
    } catch (caught) {
      setError(messageOf(caught, 'The change could not be saved.'));
    }
  };

  return (
    <div className="grid gap-2">
      <p className="flex flex-wrap items-center gap-2 text-sm">
        <span>
          Triage: <span className="font-semibold">{triageStateLabels[state]}</span>
        </span>
        {canChange && (
          <Button
            type="button"
            variant="ghost"
            size="sm"
            aria-expanded={open}
            aria-controls={`${ids}-form`}
            onClick={() => setOpen((value) => !value)}
          >
            Change triage<span className="sr-only"> of {title}</span>
          </Button>
        )}
      </p>
      <p role="status" className="text-sm text-emerald-900">
        {done}
      </p>
      {canChange && open && (
        <form
          id={`${ids}-form`}
          onSubmit={submit}
          noValidate
          aria-label={`Triage of ${title}`}
          className="grid max-w-xl gap-3 rounded-md border border-slate-200 p-3"
        >
          <FormField label="Change">
            {(field) => (
              <NativeSelect
                {...field}
                value={action}
                onChange={(event) => {
                  setAction(event.target.value as PersonAction);
                  setError(undefined);
                }}
              >
                {(Object.keys(actionLabels) as PersonAction[]).map((value) => (
                  <option key={value} value={value}>
                    {actionLabels[value]}
                  </option>
                ))}
              </NativeSelect>
            )}
          </FormField>
          <FormField
            label={
              action === 'false_positive'
                ? 'Why is it a false positive? (required)'
                : action === 'accept'
                  ? 'Reason (required)'
                  : 'Note'
            }
            error={error}
          >
            {(field) => (
              <Textarea {...field} value={text} onChange={(event) => setText(event.target.value)} />
            )}
          </FormField>
          <div>
            <Button type="submit" size="sm" disabled={change.isPending}>
              {change.isPending ? 'Saving…' : 'Apply'}
            </Button>
          </div>
        </form>
      )}
    </div>
  );
}
