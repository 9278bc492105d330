import { Download, Undo2 } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { reportRefundPolicy } from '#contract/catalogue.js';
import type { PurchasedAddOn } from '#contract/domains.js';
import { Button } from '../../../components/ui/button';
import { Label } from '../../../components/ui/label';
import { Spinner } from '../../../components/ui/spinner';
import { Textarea } from '../../../components/ui/textarea';
import { messageOf } from '../../../lib/api-client';
import { toast } from '../../../lib/toast-store';
import { useAddOns, useRefundAddOn } from '../api/add-ons';
import { formatUsd } from '../domain-form';
import { formatDate } from '../format';

/**
 * The add-ons bought for a domain, with their downloads, what each delivered, and its refund:
 * the state of one already refunded (a delivery that fell short, or asked for), or the terms'
 * refund of a report rejected in a review while its window is open (ADR 0042).
 */
export function PurchasedAddOns({ domain }: { domain: string }) {
  const addOns = useAddOns(domain, true);
  if (addOns.isPending) return <Spinner label="Loading your add-ons" className="p-2" />;
  if (addOns.isError) {
    return (
      <p role="alert" className="text-sm text-bad">
        {messageOf(addOns.error, 'Your add-ons could not be loaded.')}
      </p>
    );
  }
  if (addOns.data.length === 0) {
    return <p className="text-sm text-slate-700">No add-ons bought for {domain} yet.</p>;
  }
  return (
    <div>
      <h4 className="font-semibold">Bought for {domain}</h4>
      <ul className="mt-2 grid gap-2" aria-label={`Add-ons bought for ${domain}`}>
        {addOns.data.map((addOn) => (
          <PurchasedRow key={addOn.id} addOn={addOn} domain={domain} />
        ))}
      </ul>
    </div>
  );
}

function PurchasedRow({ addOn, domain }: { addOn: PurchasedAddOn; domain: string }) {
  const [asking, setAsking] = useState(false);
  return (
    <li className="grid gap-2 rounded-md border border-slate-200 p-3 text-sm">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <span>
          <span className="font-semibold">{addOn.name}</span>, {formatUsd(addOn.price)} on{' '}
          {formatDate(addOn.createdAt)}
          {addOn.description && <span className="block text-slate-700">{addOn.description}</span>}
        </span>
        <span className="flex flex-wrap items-center gap-3">
          <a
            href={addOn.downloadUrl}
            download
            className="inline-flex items-center gap-1 font-semibold text-brand-600 underline"
          >
            <Download aria-hidden="true" className="h-4 w-4" />
            Download <span className="sr-only">{addOn.name}</span>
          </a>
          {addOn.refundableUntil && !asking && (
            <Button type="button" size="sm" variant="outline" onClick={() => setAsking(true)}>
              <Undo2 aria-hidden="true" className="h-4 w-4" />
              Ask for a refund <span className="sr-only">of {addOn.name}</span>
            </Button>
          )}
        </span>
      </div>
      {addOn.refund && (
        <p className="font-medium text-slate-800">
          Refunded {formatUsd(addOn.refund.amount)} on {formatDate(addOn.refund.refundedAt)}:{' '}
          {addOn.refund.reason}
        </p>
      )}
      {asking && addOn.refundableUntil && (
        <RefundForm
          addOn={addOn}
          refundableUntil={addOn.refundableUntil}
          domain={domain}
          onClose={() => setAsking(false)}
        />
      )}
    </li>
  );
}

function RefundForm({
  addOn,
  refundableUntil,
  domain,
  onClose,
}: {
  addOn: PurchasedAddOn;
  refundableUntil: string;
  domain: string;
  onClose: () => void;
}) {
  const id = useId();
  const [reason, setReason] = useState('');
  const refund = useRefundAddOn(domain);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    refund.mutate(
      { id: addOn.id, reason },
      {
        onSuccess: (refunded) => {
          toast({
            title: 'Refund issued',
            description: `${formatUsd(refunded.price)} for ${refunded.name} is refunded; its credit note is in Settings → Billing.`,
          });
          onClose();
        },
      },
    );
  };
  return (
    <form
      className="grid gap-2 rounded-md bg-slate-50 p-3"
      aria-label={`Refund of ${addOn.name}`}
      onSubmit={submit}
    >
      <p className="text-slate-700" id={`${id}-terms`}>
        If this report was formally rejected in a procurement or compliance review, its{' '}
        {formatUsd(addOn.price)} is refunded at once, within {reportRefundPolicy.withinDays} days of
        purchase (until {formatDate(refundableUntil)}), and a credit note is issued. The request is
        not reviewed by anyone: say which review rejected the report and why, for your records and
        the credit note.
      </p>
      <Label htmlFor={`${id}-reason`}>Which review rejected the report, and why</Label>
      <Textarea
        id={`${id}-reason`}
        required
        minLength={10}
        maxLength={500}
        value={reason}
        aria-describedby={`${id}-terms`}
        aria-invalid={refund.isError || undefined}
        onChange={(event) => setReason(event.target.value)}
      />
      {refund.isError && (
        <p role="alert" className="text-bad">
          {messageOf(refund.error, 'The refund could not be made.')}
        </p>
      )}
      <div className="flex flex-wrap gap-2">
        <Button type="submit" size="sm" disabled={refund.isPending}>
          Refund {formatUsd(addOn.price)}
        </Button>
        <Button type="button" size="sm" variant="ghost" onClick={onClose}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
