import { CheckCircle2, ShieldAlert } from 'lucide-react';
import { Link, useParams } from 'react-router';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { messageOf } from '../../../lib/api-client';
import { usePageTitle } from '../../../lib/page-title';
import { paths } from '../../../lib/paths';
import { useConfirmEmailChange } from '../api/email';

/**
 * The link e-mailed to a new address (Settings, change e-mail). A button confirms, rather than
 * opening the page: mail scanners that open links must not change anyone's address.
 */
export function ConfirmEmailPage() {
  usePageTitle('Confirm your new e-mail address');
  const { token = '' } = useParams();
  const confirm = useConfirmEmailChange();
  return (
    <div className="mx-auto w-full max-w-md px-4 py-12">
      <Card>
        <h1 className="text-2xl font-bold">Confirm your new e-mail address</h1>
        {confirm.isSuccess ? (
          <div role="status" className="mt-6 grid gap-4">
            <CheckCircle2 aria-hidden="true" className="mx-auto h-12 w-12 text-green-700" />
            <p>
              Done: you sign in with <strong>{confirm.data.email}</strong> from now on.
            </p>
            <Button asChild>
              <Link to={paths.dashboardSettings.getHref()}>Go to Settings</Link>
            </Button>
          </div>
        ) : (
          <div className="mt-6 grid gap-4">
            <p className="text-slate-700">
              Confirm to sign in to Conformly with the address this link was sent to.
            </p>
            {confirm.isError && (
              <p role="alert" className="flex gap-2 rounded-md border border-bad p-3 text-bad">
                <ShieldAlert aria-hidden="true" className="h-5 w-5 shrink-0" />
                {messageOf(confirm.error, 'The address could not be changed.')}
              </p>
            )}
            <Button
              type="button"
              disabled={!token.trim() || confirm.isPending}
              onClick={() => confirm.mutate(token)}
            >
              {confirm.isPending ? 'Confirming…' : 'Confirm new address'}
            </Button>
          </div>
        )}
      </Card>
    </div>
  );
}
