import { MailX } from 'lucide-react';
import { useSearchParams } from 'react-router';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Spinner } from '../../../components/ui/spinner';
import { messageOf } from '../../../lib/api-client';
import { usePageTitle } from '../../../lib/page-title';
import { useUnsubscribe, useUnsubscribePreview } from '../api/unsubscribe';

/**
 * /unsubscribe?token=: an alert e-mail's unsubscribe link, signed out. It says which e-mails the
 * link stops and for which (partly hidden) address, and asks before unsubscribing: link checkers
 * open every link in an e-mail, and must not unsubscribe anybody.
 */
export function UnsubscribePage() {
  usePageTitle('Unsubscribe');
  const [search] = useSearchParams();
  const token = search.get('token') ?? '';
  const preview = useUnsubscribePreview(token);
  const unsubscribe = useUnsubscribe(token);
  return (
    <div className="mx-auto w-full max-w-md px-4 py-12">
      <Card>
        <h1 className="flex items-center gap-2 text-2xl font-bold">
          <MailX aria-hidden="true" className="h-7 w-7 text-brand-600" />
          Unsubscribe
        </h1>
        {!token && (
          <p role="alert" className="mt-4 text-bad">
            This unsubscribe link is not valid.
          </p>
        )}
        {token && preview.isPending && <Spinner label="Checking the link" />}
        {preview.isError && (
          <p role="alert" className="mt-4 text-bad">
            {messageOf(preview.error, 'This unsubscribe link is not valid.')}
          </p>
        )}
        {preview.data &&
          (preview.data.subscribed ? (
            <div className="mt-4 grid gap-4">
              <p>
                Stop <strong>{preview.data.label.toLowerCase()}</strong> to{' '}
                <strong>{preview.data.email}</strong>? Other e-mails stay as they are; you can
                change them in your settings.
              </p>
              {unsubscribe.isError && (
                <p role="alert" className="text-bad">
                  {messageOf(unsubscribe.error, 'Please try again.')}
                </p>
              )}
              <Button
                type="button"
                disabled={unsubscribe.isPending}
                onClick={() => unsubscribe.mutate()}
              >
                {unsubscribe.isPending ? 'Unsubscribing…' : 'Unsubscribe'}
              </Button>
            </div>
          ) : (
            <p role="status" className="mt-4">
              You are unsubscribed: <strong>{preview.data.email}</strong> gets no more{' '}
              {preview.data.label.toLowerCase()}.
            </p>
          ))}
      </Card>
    </div>
  );
}
