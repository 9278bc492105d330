import { useState } from 'react';
import type { IntervalChangePreview } from '#contract/billing-interval.js';
import { formatUsd } from '#contract/catalogue.js';
import { formatDate } from '#contract/vocabulary.js';
import { useChangeInterval, useIntervalPreview } from '../../../api/billing/billing-interval';
import { Button } from '../../../components/ui/button';
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogTitle,
} from '../../../components/ui/dialog';
import { Spinner } from '../../../components/ui/spinner';
import { ApiError, messageOf } from '../../../lib/api-client';
import { toast } from '../../../lib/toast-store';

/**
 * Settings → Billing: monthly or yearly billing. Switching to yearly shows, before anything is
 * charged, what the unused part of each paid domain's month credits and what a year costs; the
 * owner confirms and the difference is charged. Back to monthly takes effect at each renewal.
 */
export function BillingInterval() {
  // Asking what yearly would cost answers 409 when the account is billed yearly already.
  const yearly = useIntervalPreview('year', true);
  if (yearly.isPending) return <Spinner label="Loading your billing interval" />;
  return (
    <div className="mt-6 border-t border-slate-200 pt-4">
      <h3 className="font-semibold">Billing interval</h3>
      {/* A failed read keeps the last figures: the error (409, yearly already) decides first. */}
      {yearly.error instanceof ApiError && yearly.error.status === 409 ? (
        <YearlyToMonthly />
      ) : yearly.isError || !yearly.data ? (
        <p role="alert" className="mt-2 text-bad">
          {messageOf(yearly.error, 'Failed to fetch your billing interval')}
        </p>
      ) : (
        <MonthlyToYearly preview={yearly.data} />
      )}
    </div>
  );
}

function MonthlyToYearly({ preview }: { preview: IntervalChangePreview }) {
  const [open, setOpen] = useState(false);
  const change = useChangeInterval();
  const confirm = async () => {
    try {
      const answer = await change.mutateAsync('year');
      setOpen(false);
      toast({
        title: 'Billed yearly',
        description: `Charged ${formatUsd(answer.dueCents)}. Your domains are paid until ${formatDate(answer.periodEnd ?? '')}.`,
        variant: 'success',
      });
    } catch (error) {
      toast({
        title: 'Could not switch to yearly billing',
        description: messageOf(error, 'Please try again.'),
        variant: 'destructive',
      });
    }
  };
  return (
    <>
      <p className="mt-2">Billed monthly. Yearly billing saves {preview.yearlyDiscountPercent}%.</p>
      <Dialog open={open} onOpenChange={setOpen}>
        <Button type="button" variant="outline" className="mt-3" onClick={() => setOpen(true)}>
          Review yearly billing
        </Button>
        <DialogContent>
          <DialogTitle>Switch to yearly billing?</DialogTitle>
          <DialogDescription>
            The unused part of each paid domain&apos;s month is credited, and a year from today is
            charged at the yearly price. Domains on their free month start paying yearly when it
            ends.
          </DialogDescription>
          {preview.lines.length > 0 && (
            <div
              className="mt-4 overflow-x-auto"
              role="region"
              aria-label="Figures by domain"
              tabIndex={0}
            >
              <table className="w-full text-sm">
                <caption className="sr-only">What each domain is credited and charged</caption>
                <thead>
                  <tr className="text-left">
                    <th scope="col">Domain</th>
                    <th scope="col" className="text-right">
                      Credit
                    </th>
                    <th scope="col" className="text-right">
                      Year
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {preview.lines.map((line) => (
                    <tr key={line.domain}>
                      <td className="break-all pr-2">{line.domain}</td>
                      <td className="text-right">−{formatUsd(line.creditCents)}</td>
                      <td className="text-right">{formatUsd(line.chargeCents)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          <dl className="mt-4 grid grid-cols-[1fr_auto] gap-x-4 gap-y-1">
            <dt>Credited for unused time</dt>
            <dd className="text-right" data-testid="interval-credit">
              −{formatUsd(preview.creditCents)}
            </dd>
            <dt>A year at the yearly price</dt>
            <dd className="text-right">{formatUsd(preview.chargeCents)}</dd>
            <dt className="font-semibold">Due today</dt>
            <dd className="text-right font-semibold" data-testid="interval-due">
              {formatUsd(preview.dueCents)}
            </dd>
          </dl>
          <div className="mt-6 flex flex-wrap justify-end gap-3">
            <DialogClose asChild>
              <Button variant="outline">Keep monthly billing</Button>
            </DialogClose>
            <Button disabled={change.isPending} onClick={() => void confirm()}>
              {change.isPending
                ? 'Switching…'
                : `Pay ${formatUsd(preview.dueCents)} and bill yearly`}
            </Button>
          </div>
        </DialogContent>
      </Dialog>
    </>
  );
}

function YearlyToMonthly() {
  const change = useChangeInterval();
  const confirm = async () => {
    try {
      await change.mutateAsync('month');
      toast({
        title: 'Billed monthly from your next renewal',
        description: 'Each domain renews monthly when its paid year ends. Nothing is charged now.',
        variant: 'success',
      });
    } catch (error) {
      toast({
        title: 'Could not switch to monthly billing',
        description: messageOf(error, 'Please try again.'),
        variant: 'destructive',
      });
    }
  };
  return (
    <>
      <p className="mt-2">Billed yearly.</p>
      <Button
        type="button"
        variant="outline"
        className="mt-3"
        disabled={change.isPending}
        onClick={() => void confirm()}
      >
        Bill monthly from each renewal
      </Button>
    </>
  );
}
