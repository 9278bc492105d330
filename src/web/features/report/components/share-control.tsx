import { Copy, Globe } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { paths } from '../../../lib/paths';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { ApiError, messageOf } from '../../../lib/api-client';
import { cn } from '../../../lib/cn';
import { toast } from '../../../lib/toast-store';
import type { ReportResponse } from '#contract/scan-api.js';
import { useSetScanVisibility } from '../api/scan-visibility';

/**
 * The owner's switch for the scan's public audit page (/public/audit/{scanId}), with the link
 * and a copy button while it is on. The report says whether the viewer owns the scan; the report
 * page shows this control only to the owner, and the server refuses anyone else anyway.
 */
export function ShareControl({
  scanId,
  sharing,
}: {
  scanId: string;
  sharing: ReportResponse['sharing'];
}) {
  const change = useSetScanVisibility(scanId);
  const [refusal, setRefusal] = useState<string>();
  const on = sharing.isPublic;
  const publicHref = paths.publicAudit.getHref(scanId);

  const toggle = () => {
    setRefusal(undefined);
    change.mutate(!on, {
      onSuccess: (answer) =>
        toast({
          title: answer.isPublic ? 'Audit page published' : 'Audit page hidden',
          description: answer.isPublic
            ? 'Anyone with the link can now see this audit.'
            : 'The public audit page of this scan is no longer available.',
          variant: 'success',
        }),
      onError: (error) => {
        if (error instanceof ApiError && error.status === 404) {
          setRefusal('Only the account that ran this scan can share it');
          return;
        }
        toast({
          title: 'Sharing failed',
          description: messageOf(error, 'The public audit page could not be changed.'),
          variant: 'destructive',
        });
      },
    });
  };

  const copyLink = () =>
    void navigator.clipboard.writeText(`${window.location.origin}${publicHref}`).then(
      () => toast({ title: 'Link copied', description: 'The public audit page link is copied.' }),
      () => toast({ title: 'Copy failed', variant: 'destructive' }),
    );

  return (
    <section id="share" aria-labelledby="share-heading" className="scroll-mt-24">
      <h2 id="share-heading" className="text-2xl font-bold">
        Share
      </h2>
      <Card className="mt-4">
        <div className="flex items-start justify-between gap-4">
          <div>
            <p id="public-switch-label" className="font-semibold">
              Public audit page
            </p>
            <p id="public-switch-help" className="mt-1 text-sm text-slate-700">
              When on, anyone with the link can open this scan&apos;s full report (the page address,
              score, date, every issue with its element, HTML and screenshots) and download every
              export of it (PDF, CSV, JSON, HTML, Word and ZIP). Off by default; only you can switch
              it on.
            </p>
          </div>
          <div className="flex shrink-0 items-center gap-2">
            <span aria-hidden="true" className="text-sm font-semibold">
              {on ? 'On' : 'Off'}
            </span>
            <button
              type="button"
              role="switch"
              aria-checked={on}
              aria-labelledby="public-switch-label"
              aria-describedby="public-switch-help"
              disabled={change.isPending}
              onClick={toggle}
              className={cn(
                'relative inline-flex h-7 w-12 items-center rounded-full border-2 border-transparent transition-colors focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-brand-600 disabled:cursor-not-allowed disabled:opacity-60 motion-reduce:transition-none',
                on ? 'bg-brand-600' : 'bg-slate-500',
              )}
            >
              <span
                aria-hidden="true"
                className={cn(
                  'inline-block h-5 w-5 rounded-full bg-white shadow transition-transform motion-reduce:transition-none',
                  on ? 'translate-x-6' : 'translate-x-0.5',
                )}
              />
            </button>
          </div>
        </div>
        {refusal && (
          <p role="alert" className="mt-3 text-sm font-semibold text-bad">
            {refusal}
          </p>
        )}
        {on && (
          <div className="mt-4 flex flex-wrap items-center gap-3">
            <Button asChild variant="outline" size="sm">
              <Link to={publicHref}>
                <Globe aria-hidden="true" className="h-4 w-4" />
                View the public audit page
              </Link>
            </Button>
            <Button variant="outline" size="sm" onClick={copyLink}>
              <Copy aria-hidden="true" className="h-4 w-4" />
              Copy link
            </Button>
          </div>
        )}
      </Card>
    </section>
  );
}
