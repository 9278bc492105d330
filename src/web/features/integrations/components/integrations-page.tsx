import { ArrowLeft } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import type { IntegrationSettings, UpdateIntegrationsRequest } from '#contract/trackers.js';
import { formatDateTime } from '#contract/vocabulary.js';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { FormField } from '../../../components/ui/form-field';
import { Input } from '../../../components/ui/input';
import { Spinner } from '../../../components/ui/spinner';
import { messageOf } from '../../../lib/api-client';
import { usePageTitle } from '../../../lib/page-title';
import { paths } from '../../../lib/paths';
import { useIntegrations, useTestWebhook, useUpdateIntegrations } from '../api/integrations';

/**
 * Settings → Integrations: where issues go (a GitHub repository, with a token the owner enters)
 * and the webhook told of new critical and serious issues, with its recent deliveries. Tokens and
 * secrets are write-only: the screen says whether one is set, never shows it.
 */
export function IntegrationsPage() {
  usePageTitle('Integrations · Settings');
  const settings = useIntegrations();
  return (
    <div className="mx-auto max-w-3xl px-4 py-10">
      <Link
        to={paths.dashboardSettings.getHref()}
        className="inline-flex items-center gap-1 text-sm font-semibold text-brand-700 underline"
      >
        <ArrowLeft aria-hidden="true" className="h-4 w-4" />
        Settings
      </Link>
      <h1 className="mt-2 text-3xl font-bold">Integrations</h1>
      {settings.isPending && <Spinner label="Loading the integrations" />}
      {settings.isError && (
        <p role="alert" className="mt-6 rounded-md border border-bad p-4 text-bad">
          {messageOf(settings.error, 'The integrations could not be loaded.')}
        </p>
      )}
      {settings.data && (
        <div className="mt-6 grid gap-6">
          <GithubForm settings={settings.data} />
          <WebhookForm settings={settings.data} />
        </div>
      )}
    </div>
  );
}

function SaveMessage({ error, saved }: { error: unknown; saved: boolean }) {
  return (
    <>
      {error !== null && error !== undefined && (
        <p role="alert" className="rounded-md border border-bad p-3 text-bad">
          {messageOf(error, 'The settings could not be saved.')}
        </p>
      )}
      <p role="status" className="text-sm font-semibold text-green-800">
        {saved ? 'Saved.' : ''}
      </p>
    </>
  );
}

function GithubForm({ settings }: { settings: IntegrationSettings }) {
  const update = useUpdateIntegrations();
  const [repo, setRepo] = useState(settings.githubRepo ?? '');
  const [apiUrl, setApiUrl] = useState(settings.githubApiUrl);
  const [token, setToken] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const change: UpdateIntegrationsRequest = { githubRepo: repo || null, githubApiUrl: apiUrl };
    if (token) change.githubToken = token;
    update.mutate(change, { onSuccess: () => setToken('') });
  };
  return (
    <Card>
      <section aria-labelledby="github-heading">
        <h2 id="github-heading" className="text-xl font-bold">
          GitHub issues
        </h2>
        <p className="mt-1 text-sm text-slate-700">
          Issues chosen on a domain&apos;s Rules and pages screen are created in this repository
          with this token. Use a fine-grained token with read and write access to issues of this
          repository only.
        </p>
        <form className="mt-4 grid gap-4" onSubmit={submit} noValidate>
          <FormField label="Repository" hint="Written owner/name, as in github.com/owner/name.">
            {(ids) => (
              <Input
                {...ids}
                value={repo}
                onChange={(event) => setRepo(event.target.value)}
                autoComplete="off"
                spellCheck={false}
              />
            )}
          </FormField>
          <FormField
            label="Access token"
            hint={
              settings.githubTokenSet
                ? 'A token is set. Leave this empty to keep it; enter a new one to replace it.'
                : 'No token is set.'
            }
          >
            {(ids) => (
              <Input
                {...ids}
                type="password"
                value={token}
                onChange={(event) => setToken(event.target.value)}
                autoComplete="off"
              />
            )}
          </FormField>
          <FormField
            label="GitHub API address"
            hint="https://api.github.com, or your GitHub Enterprise server's API."
          >
            {(ids) => (
              <Input
                {...ids}
                type="url"
                value={apiUrl}
                onChange={(event) => setApiUrl(event.target.value)}
                spellCheck={false}
              />
            )}
          </FormField>
          <SaveMessage error={update.error} saved={update.isSuccess} />
          <div className="flex flex-wrap gap-3">
            <Button type="submit" disabled={update.isPending}>
              Save GitHub settings
            </Button>
            {settings.githubTokenSet && (
              <Button
                type="button"
                variant="outline"
                disabled={update.isPending}
                onClick={() => update.mutate({ githubToken: '' })}
              >
                Remove the token
              </Button>
            )}
          </div>
        </form>
      </section>
    </Card>
  );
}

function WebhookForm({ settings }: { settings: IntegrationSettings }) {
  const update = useUpdateIntegrations();
  const test = useTestWebhook();
  const [url, setUrl] = useState(settings.webhookUrl ?? '');
  const [secret, setSecret] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const change: UpdateIntegrationsRequest = { webhookUrl: url || null };
    if (secret) change.webhookSecret = secret;
    update.mutate(change, { onSuccess: () => setSecret('') });
  };
  return (
    <Card>
      <section aria-labelledby="webhook-heading">
        <h2 id="webhook-heading" className="text-xl font-bold">
          Webhook
        </h2>
        <p className="mt-1 text-sm text-slate-700">
          After each site audit that finds new critical or serious issues, Conformly posts them as
          JSON to this address. The header X-Conformly-Signature holds sha256= and the HMAC-SHA256
          of the X-Conformly-Timestamp value, a dot and the body, keyed with the secret below.
          Failed deliveries are tried three times in all.
        </p>
        <form className="mt-4 grid gap-4" onSubmit={submit} noValidate>
          <FormField label="Webhook URL" hint="An https:// address.">
            {(ids) => (
              <Input
                {...ids}
                type="url"
                value={url}
                onChange={(event) => setUrl(event.target.value)}
                spellCheck={false}
              />
            )}
          </FormField>
          <FormField
            label="Signing secret"
            hint={
              settings.webhookSecretSet
                ? 'A secret is set. Leave this empty to keep it; enter a new one to replace it.'
                : 'At least 16 characters; no secret is set yet.'
            }
          >
            {(ids) => (
              <Input
                {...ids}
                type="password"
                value={secret}
                onChange={(event) => setSecret(event.target.value)}
                autoComplete="off"
              />
            )}
          </FormField>
          <SaveMessage error={update.error} saved={update.isSuccess} />
          <div className="flex flex-wrap gap-3">
            <Button type="submit" disabled={update.isPending}>
              Save webhook
            </Button>
            <Button
              type="button"
              variant="outline"
              disabled={test.isPending || !settings.webhookUrl || !settings.webhookSecretSet}
              onClick={() => test.mutate()}
            >
              {test.isPending ? 'Sending…' : 'Send test'}
            </Button>
          </div>
          {test.isError && (
            <p role="alert" className="rounded-md border border-bad p-3 text-bad">
              {messageOf(test.error, 'The test could not be sent.')}
            </p>
          )}
        </form>
        <h3 className="mt-6 font-semibold">Recent deliveries</h3>
        {settings.deliveries.length === 0 ? (
          <p className="mt-1 text-sm text-slate-700">Nothing sent yet.</p>
        ) : (
          <ul className="mt-2 grid gap-2 text-sm">
            {settings.deliveries.map((delivery) => (
              <li key={delivery.id} className="rounded-md border border-slate-200 p-2 break-words">
                <span className="font-semibold">{formatDateTime(delivery.createdAt)}</span> ·{' '}
                {delivery.event} ·{' '}
                {delivery.error === null ? (
                  <span className="text-green-800">delivered ({delivery.statusCode})</span>
                ) : (
                  <span className="text-bad">failed: {delivery.error}</span>
                )}
              </li>
            ))}
          </ul>
        )}
      </section>
    </Card>
  );
}
