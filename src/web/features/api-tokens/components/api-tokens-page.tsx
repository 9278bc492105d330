import { useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import {
  apiTokenExpiryDays,
  apiTokenScopeLabels,
  type ApiToken,
  type CreatedApiTokenResponse,
} from '#contract/api-token.js';
import { apiTokenScopes, type ApiTokenScope } from '#contract/organisation.js';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Checkbox } from '../../../components/ui/checkbox';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { NativeSelect } from '../../../components/ui/native-select';
import { Spinner } from '../../../components/ui/spinner';
import { messageOf } from '../../../lib/api-client';
import { usePageTitle } from '../../../lib/page-title';
import { paths } from '../../../lib/paths';
import { toast } from '../../../lib/toast-store';
import {
  apiReferenceHref,
  useApiTokens,
  useCreateApiToken,
  useRevokeApiToken,
} from '../api/tokens';

const day = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
const moment = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

const failed = (title: string, error: unknown) =>
  toast({ title, description: messageOf(error, 'Please try again.'), variant: 'destructive' });

const expiryLabel = (days: number) => (days === 365 ? '1 year' : `${days} days`);

function CreateTokenForm({ onCreated }: { onCreated: (created: CreatedApiTokenResponse) => void }) {
  const create = useCreateApiToken();
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<ApiTokenScope[]>([]);
  const [expiresInDays, setExpiresInDays] = useState<number>(90);
  const [problem, setProblem] = useState<string>();
  const scopesHintId = useId();

  const toggle = (scope: ApiTokenScope, on: boolean) =>
    setScopes((current) =>
      on
        ? apiTokenScopes.filter((s) => s === scope || current.includes(s))
        : current.filter((s) => s !== scope),
    );

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (scopes.length === 0) {
      setProblem('Choose at least one scope.');
      return;
    }
    setProblem(undefined);
    try {
      const created = await create.mutateAsync({ name, scopes, expiresInDays });
      onCreated(created);
      setName('');
      setScopes([]);
    } catch (error) {
      failed('Could not create the token', error);
    }
  };

  return (
    <form
      aria-label="Create an API token"
      className="mt-4 grid gap-4"
      onSubmit={(event) => void onSubmit(event)}
    >
      <div className="grid gap-1.5">
        <Label htmlFor="token-name">Name</Label>
        <Input
          id="token-name"
          required
          maxLength={100}
          autoComplete="off"
          placeholder="e.g. GitHub Actions"
          value={name}
          onChange={(event) => setName(event.target.value)}
        />
      </div>
      <fieldset aria-describedby={scopesHintId}>
        <legend className="font-medium">Scopes</legend>
        <p id={scopesHintId} className="text-sm text-slate-700">
          What the token may do. It never reaches billing, members or anyone&apos;s account.
        </p>
        <ul className="mt-2 grid gap-2">
          {apiTokenScopes.map((scope) => {
            const id = `scope-${scope.replace(':', '-')}`;
            return (
              <li key={scope} className="flex items-center gap-2">
                <Checkbox
                  id={id}
                  checked={scopes.includes(scope)}
                  onCheckedChange={(state) => toggle(scope, state === true)}
                />
                <Label htmlFor={id}>
                  <code>{scope}</code>: {apiTokenScopeLabels[scope]}
                </Label>
              </li>
            );
          })}
        </ul>
        {problem && (
          <p role="alert" className="mt-2 text-sm text-bad">
            {problem}
          </p>
        )}
      </fieldset>
      <div className="grid gap-1.5 sm:max-w-xs">
        <Label htmlFor="token-expiry">Expires after</Label>
        <NativeSelect
          id="token-expiry"
          value={String(expiresInDays)}
          onChange={(event) => setExpiresInDays(Number(event.target.value))}
        >
          {apiTokenExpiryDays.map((days) => (
            <option key={days} value={days}>
              {expiryLabel(days)}
            </option>
          ))}
        </NativeSelect>
      </div>
      <div>
        <Button type="submit" disabled={create.isPending}>
          Create token
        </Button>
      </div>
    </form>
  );
}

/** The new token's secret, shown this once with a copy button. */
function NewSecret({ created, onDone }: { created: CreatedApiTokenResponse; onDone: () => void }) {
  const secretId = useId();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(created.secret);
      toast({
        title: 'Copied!',
        description: 'The token is on your clipboard.',
        variant: 'success',
      });
    } catch {
      toast({
        title: 'Copy failed',
        description: 'Select the token and copy it yourself.',
        variant: 'destructive',
      });
    }
  };
  return (
    <Card
      className="mt-6 border-2 border-brand-600 p-4"
      role="region"
      aria-labelledby={`${secretId}-title`}
    >
      <h2 id={`${secretId}-title`} className="text-xl font-semibold">
        Your new token “{created.token.name}”
      </h2>
      <p role="alert" className="mt-2 font-medium">
        Copy this token now: it is shown only once. Store it as a secret (for example{' '}
        <code>CONFORMLY_TOKEN</code> in your CI settings); anyone who holds it can act with its
        scopes until it expires or you revoke it.
      </p>
      <div className="mt-3 grid gap-1.5">
        <Label htmlFor={secretId}>Token</Label>
        <div className="flex flex-wrap gap-2">
          <Input
            id={secretId}
            readOnly
            value={created.secret}
            className="min-w-0 flex-1 font-mono"
            onFocus={(event) => event.target.select()}
          />
          <Button type="button" onClick={() => void copy()}>
            Copy token
          </Button>
        </div>
      </div>
      <p className="mt-3 text-sm text-slate-700">
        Send it as <code>Authorization: Bearer &lt;token&gt;</code>.
      </p>
      <Button type="button" variant="outline" className="mt-3" onClick={onDone}>
        I have stored it
      </Button>
    </Card>
  );
}

function stateOf(token: ApiToken): string {
  if (token.revokedAt) return `Revoked ${day.format(new Date(token.revokedAt))}`;
  if (!token.active) return 'Expired';
  return 'Active';
}

function TokenRow({ token }: { token: ApiToken }) {
  const revoke = useRevokeApiToken();
  return (
    <tr className="border-t border-slate-200 align-top">
      <th scope="row" className="py-2 pr-4 text-left font-medium">
        {token.name}
        <br />
        <code className="text-sm font-normal text-slate-700">{token.prefix}…</code>
      </th>
      <td className="py-2 pr-4">
        <ul>
          {token.scopes.map((scope) => (
            <li key={scope}>
              <code>{scope}</code>
            </li>
          ))}
        </ul>
      </td>
      <td className="py-2 pr-4 text-sm">
        {day.format(new Date(token.createdAt))}
        {token.createdBy && (
          <>
            <br />
            by {token.createdBy}
          </>
        )}
      </td>
      <td className="py-2 pr-4 text-sm">
        {token.expiresAt ? day.format(new Date(token.expiresAt)) : 'Never'}
      </td>
      <td className="py-2 pr-4 text-sm">
        {token.lastUsedAt ? moment.format(new Date(token.lastUsedAt)) : 'Never used'}
      </td>
      <td className="py-2 pr-4 text-sm">{stateOf(token)}</td>
      <td className="py-2">
        {!token.revokedAt && (
          <Button
            variant="outline"
            size="sm"
            disabled={revoke.isPending}
            aria-label={`Revoke ${token.name}`}
            onClick={() => {
              const question = `Revoke “${token.name}”? Scripts and CI jobs using it are refused from their next request. This cannot be undone.`;
              if (!window.confirm(question)) return;
              revoke
                .mutateAsync(token.id)
                .then((answer) => toast({ title: answer.message, variant: 'success' }))
                .catch((error: unknown) => failed('Could not revoke the token', error));
            }}
          >
            Revoke
          </Button>
        )}
      </td>
    </tr>
  );
}

/**
 * Settings → API tokens: owners and admins create tokens for scripts and CI (name, scopes,
 * expiry), see the secret once, list every token with when it was last used, and revoke them.
 */
export function ApiTokensPage() {
  usePageTitle('API tokens');
  const tokens = useApiTokens();
  const [created, setCreated] = useState<CreatedApiTokenResponse>();

  return (
    <div className="mx-auto max-w-5xl px-4 py-8">
      <p className="text-sm">
        <Link to={paths.dashboardSettings.getHref()} className="text-brand-700 underline">
          Settings
        </Link>
      </p>
      <h1 className="mt-1 text-3xl font-bold">API tokens</h1>
      <p className="mt-2 text-slate-700">
        Tokens let scripts and CI jobs call the Conformly API for this organisation, for example{' '}
        <code>conformly ci --upload</code>. Each token works only for the scopes you give it, until
        it expires or is revoked. See the{' '}
        <a href={apiReferenceHref} className="text-brand-700 underline">
          API reference
        </a>{' '}
        for the calls each scope allows.
      </p>
      {created && <NewSecret created={created} onDone={() => setCreated(undefined)} />}
      {tokens.isPending ? (
        <Spinner label="Loading the API tokens" />
      ) : tokens.isError ? (
        <p role="alert" className="mt-4 text-bad">
          {messageOf(tokens.error, 'The API tokens could not be loaded.')}
        </p>
      ) : (
        <>
          <Card className="mt-6 p-4">
            <h2 className="text-xl font-semibold">Create a token</h2>
            <CreateTokenForm onCreated={setCreated} />
          </Card>
          <Card className="mt-6 overflow-x-auto p-4">
            <h2 className="text-xl font-semibold">Tokens</h2>
            {tokens.data.tokens.length === 0 ? (
              <p className="mt-2 text-slate-700">This organisation has no API token yet.</p>
            ) : (
              <table className="mt-2 w-full text-left">
                <thead>
                  <tr>
                    <th scope="col" className="py-2 pr-4">
                      Name
                    </th>
                    <th scope="col" className="py-2 pr-4">
                      Scopes
                    </th>
                    <th scope="col" className="py-2 pr-4">
                      Created
                    </th>
                    <th scope="col" className="py-2 pr-4">
                      Expires
                    </th>
                    <th scope="col" className="py-2 pr-4">
                      Last used
                    </th>
                    <th scope="col" className="py-2 pr-4">
                      State
                    </th>
                    <th scope="col" className="py-2">
                      <span className="sr-only">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {tokens.data.tokens.map((token) => (
                    <TokenRow key={token.id} token={token} />
                  ))}
                </tbody>
              </table>
            )}
          </Card>
        </>
      )}
    </div>
  );
}
