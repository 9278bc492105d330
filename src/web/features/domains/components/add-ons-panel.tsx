import { FilePlus2 } from 'lucide-react';
import { useId, useState } from 'react';
import { addOnPrice, type AddOn } from '#contract/domains.js';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { Spinner } from '../../../components/ui/spinner';
import { toast } from '../../../lib/toast-store';
import { useAddOnCatalogue, useAddOnPages } from '../api/add-ons';
import { formatUsd, pagesOf } from '../domain-form';
import type { Purchase } from './payment-dialog';
import { PurchasedAddOns } from './purchased-add-ons';

/**
 * Spec §2 add-ons panel: collapsible, per active domain. The eight one-time reports with a live
 * price for the pages asked for, bought through the payment dialog, and the ones bought already
 * with their downloads.
 */
export function AddOnsPanel({
  domain,
  onBuy,
}: {
  domain: string;
  onBuy: (purchase: Purchase) => void;
}) {
  const [open, setOpen] = useState(false);
  return (
    <details
      className="rounded-md border border-slate-200"
      onToggle={(event) => setOpen(event.currentTarget.open)}
    >
      <summary className="cursor-pointer rounded-md px-4 py-3 font-semibold hover:bg-slate-50">
        Add-on reports for {domain}
      </summary>
      {open && (
        <div className="grid gap-6 border-t border-slate-200 p-4">
          <PurchasedAddOns domain={domain} />
          <Catalogue domain={domain} onBuy={onBuy} />
        </div>
      )}
    </details>
  );
}

/**
 * Documents are made from the owner's latest scans of the domain's pages, so the panel says how
 * many there are and sells nothing before the first scan (the purchase would be refused after
 * the payment).
 */
function Catalogue({ domain, onBuy }: { domain: string; onBuy: (purchase: Purchase) => void }) {
  const pages = useAddOnPages(domain);
  const onSale = useAddOnCatalogue();
  if (pages.isPending || onSale.isPending) {
    return <Spinner label="Loading the scanned pages" className="p-2" />;
  }
  const available = pages.data?.availablePages;
  return (
    <div className="grid gap-3">
      {available === 0 ? (
        <p className="text-sm font-medium text-warn">
          {domain} has no completed scan yet. Add-on reports are made from your latest scans, so
          scan a page of it first.
        </p>
      ) : available !== undefined ? (
        <p className="text-sm text-slate-700">
          Reports are made from your latest scans of {available}{' '}
          {available === 1 ? 'page' : 'pages'} of {domain}.
        </p>
      ) : null}
      <ul className="grid gap-3" aria-label={`Add-on reports you can buy for ${domain}`}>
        {(onSale.data ?? []).map((addOn) => (
          <AddOnRow
            key={addOn.id}
            addOn={addOn}
            domain={domain}
            available={available}
            onBuy={onBuy}
          />
        ))}
      </ul>
    </div>
  );
}

function AddOnRow({
  addOn,
  domain,
  available,
  onBuy,
}: {
  addOn: AddOn;
  domain: string;
  /** Scanned pages a document can be made from; undefined when unknown. */
  available: number | undefined;
  onBuy: (purchase: Purchase) => void;
}) {
  const id = useId();
  const [pagesText, setPagesText] = useState('1');
  const pages = pagesOf(pagesText);
  // A report covers only scanned pages: more pages than that cannot be bought (ADR 0035).
  const tooMany = available !== undefined && pages > available;
  let price: number | undefined;
  try {
    price = addOnPrice(addOn.id, pages);
  } catch {
    price = undefined;
  }

  const buy = () => {
    if (price === undefined) {
      toast({
        title: 'Pricing Error',
        description: 'Unable to calculate pricing for this add-on.',
        variant: 'destructive',
      });
      return;
    }
    onBuy({ kind: 'add-on', domain, addOn, pages, price });
  };

  return (
    <li className="grid gap-3 rounded-md bg-slate-50 p-3 sm:grid-cols-[1fr_auto] sm:items-end">
      <div>
        <p className="font-semibold">{addOn.name}</p>
        <p className="text-sm text-slate-700">{addOn.description}</p>
        <p className="mt-1 text-xs text-slate-700">
          {formatUsd(addOn.basePrice)} for the first page, {formatUsd(addOn.perPagePrice)} for each
          further page
        </p>
      </div>
      <div className="flex flex-wrap items-end gap-3">
        <div className="grid gap-1">
          <Label htmlFor={`${id}-pages`}>Pages</Label>
          <Input
            id={`${id}-pages`}
            type="number"
            min={1}
            step={1}
            inputMode="numeric"
            className="w-20"
            value={pagesText}
            aria-describedby={`${id}-price`}
            onChange={(event) => setPagesText(event.target.value)}
            onBlur={() => setPagesText(String(pages))}
          />
        </div>
        <p id={`${id}-price`} className="min-w-16 pb-2 font-bold" aria-live="polite">
          {price === undefined ? '–' : formatUsd(price)}
        </p>
        <Button
          type="button"
          size="sm"
          className="mb-0.5"
          onClick={buy}
          disabled={available === 0 || tooMany}
        >
          <FilePlus2 aria-hidden="true" className="h-4 w-4" />
          Buy <span className="sr-only">{addOn.name}</span>
        </Button>
      </div>
      {available !== undefined && available > 0 && tooMany && (
        <p className="text-sm font-medium text-warn sm:col-span-2">
          Only {available} {available === 1 ? 'page has' : 'pages have'} been scanned, so a report
          for {pages} cannot be bought. Scan more pages first, or buy it for {available}.
        </p>
      )}
    </li>
  );
}
