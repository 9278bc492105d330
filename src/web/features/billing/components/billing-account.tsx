import { useState, type FormEvent } from 'react';
import { usePaymentConfig } from '../../../api/payments/payment-config';
import { CardPayment } from '../../../components/payment/card-payment';
import type { BuyerDetails, CardOnFile } from '#contract/invoice.js';
import { formatDate } from '#contract/vocabulary.js';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { FormField } from '../../../components/ui/form-field';
import { Input } from '../../../components/ui/input';
import { Spinner } from '../../../components/ui/spinner';
import { Textarea } from '../../../components/ui/textarea';
import { ApiError, messageOf } from '../../../lib/api-client';
import { toast } from '../../../lib/toast-store';
import {
  useBuyerDetails,
  useCardOnFile,
  useConfirmCard,
  useInvoices,
  useReplaceCard,
  useSaveBuyerDetails,
} from '../api/invoices';

const money = (cents: number, currency: string) =>
  new Intl.NumberFormat('en-US', { style: 'currency', currency: currency.toUpperCase() }).format(
    cents / 100,
  );

const brandNames: Record<string, string> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  amex: 'American Express',
  discover: 'Discover',
};

/**
 * Settings → Billing for owners and admins: the card on file (and replacing it), who is billed,
 * and every invoice and credit note with its PDF (and Stripe's hosted page in Stripe mode).
 */
export function BillingAccountSections() {
  // Members and viewers see the plan above but not the organisation's invoices or card.
  const card = useCardOnFile();
  if (card.error instanceof ApiError && card.error.status === 403) return null;
  return (
    <>
      <CardOnFileSection />
      <BuyerDetailsSection />
      <InvoicesSection />
    </>
  );
}

function CardOnFileSection() {
  const card = useCardOnFile();
  const [replacing, setReplacing] = useState(false);
  return (
    <section aria-labelledby="card-heading" className="mt-8">
      <Card>
        <h2 id="card-heading" className="text-xl font-bold">
          Card on file
        </h2>
        {card.isPending && <Spinner label="Loading the card on file" />}
        {card.isError && (
          <p role="alert" className="mt-4 text-bad">
            {messageOf(card.error, 'The card on file could not be loaded')}
          </p>
        )}
        {card.data && (
          <>
            <p className="mt-4" data-testid="card-on-file">
              {card.data.card ? describeCard(card.data.card) : 'No card on file.'}
            </p>
            {card.data.provider === 'demo' ? (
              replacing ? (
                <DemoCardForm onDone={() => setReplacing(false)} />
              ) : (
                <Button className="mt-4" variant="outline" onClick={() => setReplacing(true)}>
                  Replace card
                </Button>
              )
            ) : (
              <StripeCardReplacement />
            )}
          </>
        )}
      </Card>
    </section>
  );
}

/**
 * Stripe mode: "Replace card" asks the server for a SetupIntent, Stripe's Payment Element takes
 * the new card (its number goes to Stripe only), and once Stripe confirmed it the server reads it
 * back and keeps its brand, last four and expiry.
 */
function StripeCardReplacement() {
  const config = usePaymentConfig();
  const replace = useReplaceCard();
  const confirm = useConfirmCard();
  const [setup, setSetup] = useState<{ clientSecret: string | null; setupId: string } | null>(null);
  const [error, setError] = useState<string>();
  const start = () => {
    setError(undefined);
    replace.mutate(
      {},
      {
        onSuccess: (answer) =>
          answer.setupId
            ? setSetup({ clientSecret: answer.clientSecret, setupId: answer.setupId })
            : setError('The card could not be replaced'),
        onError: (failure) => setError(messageOf(failure, 'The card could not be replaced')),
      },
    );
  };
  return (
    <div className="mt-4">
      {error && (
        <p role="alert" className="mb-4 text-bad">
          {error}
        </p>
      )}
      {setup && config.data ? (
        <>
          <CardPayment
            config={config.data}
            clientSecret={setup.clientSecret}
            submitLabel="Save card"
            returnPath={window.location.pathname}
            onConfirmed={async () => {
              try {
                await confirm.mutateAsync({ setupId: setup.setupId });
                toast({ title: 'Card replaced', variant: 'success' });
                setSetup(null);
              } catch (failure) {
                setError(messageOf(failure, 'The card could not be saved'));
              }
            }}
          />
          <Button className="mt-2" variant="ghost" onClick={() => setSetup(null)}>
            Cancel
          </Button>
        </>
      ) : (
        <Button variant="outline" onClick={start} disabled={replace.isPending}>
          {replace.isPending ? 'Opening the card form…' : 'Replace card'}
        </Button>
      )}
    </div>
  );
}

function describeCard(card: CardOnFile): string {
  const brand = brandNames[card.brand] ?? 'Card';
  const expiry =
    card.expMonth && card.expYear
      ? `, expires ${String(card.expMonth).padStart(2, '0')}/${card.expYear}`
      : '';
  return `${brand} ending in ${card.last4}${expiry}`;
}

function DemoCardForm({ onDone }: { onDone: () => void }) {
  const replace = useReplaceCard();
  const [error, setError] = useState<string>();
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    setError(undefined);
    replace.mutate(
      {
        cardNumber: String(data.get('cardNumber') ?? ''),
        expiry: String(data.get('expiry') ?? ''),
      },
      {
        onSuccess: () => {
          toast({ title: 'Card replaced', variant: 'success' });
          onDone();
        },
        onError: (failure) => setError(messageOf(failure, 'The card could not be replaced')),
      },
    );
  };
  return (
    <form onSubmit={submit} className="mt-4 grid gap-4" aria-labelledby="demo-card-heading">
      <div className="rounded-md border border-amber-600 bg-amber-50 p-3 text-slate-900">
        <h3 id="demo-card-heading" className="font-semibold">
          Demo card form
        </h3>
        <p className="text-sm">
          This service runs with a demo payment provider: no card is charged and no money moves.
          Only the card&apos;s brand, last four digits and expiry are kept. Try 4242 4242 4242 4242.
        </p>
      </div>
      <FormField label="Card number" error={error}>
        {(ids) => (
          <Input {...ids} name="cardNumber" inputMode="numeric" autoComplete="cc-number" required />
        )}
      </FormField>
      <FormField label="Expiry (MM/YY)">
        {(ids) => (
          <Input {...ids} name="expiry" autoComplete="cc-exp" placeholder="MM/YY" required />
        )}
      </FormField>
      <div className="flex flex-wrap gap-3">
        <Button type="submit" disabled={replace.isPending}>
          {replace.isPending ? 'Saving…' : 'Save card'}
        </Button>
        <Button type="button" variant="outline" onClick={onDone}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

function BuyerDetailsSection() {
  const details = useBuyerDetails();
  return (
    <section aria-labelledby="buyer-heading" className="mt-8">
      <Card>
        <h2 id="buyer-heading" className="text-xl font-bold">
          Billing details
        </h2>
        <p className="mt-2 text-slate-700">
          Printed on invoices issued from now on; earlier invoices keep the details they were issued
          with.
        </p>
        {details.isPending && <Spinner label="Loading billing details" />}
        {details.isError && (
          <p role="alert" className="mt-4 text-bad">
            {messageOf(details.error, 'Billing details could not be loaded')}
          </p>
        )}
        {details.data && <BuyerForm initial={details.data} />}
      </Card>
    </section>
  );
}

function BuyerForm({ initial }: { initial: BuyerDetails }) {
  const save = useSaveBuyerDetails();
  const [error, setError] = useState<string>();
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const text = (name: string) => String(data.get(name) ?? '');
    setError(undefined);
    save.mutate(
      {
        legalName: text('legalName'),
        billingEmail: text('billingEmail'),
        address: text('address'),
        country: text('country'),
        taxId: text('taxId'),
      },
      {
        onSuccess: () => toast({ title: 'Billing details saved', variant: 'success' }),
        onError: (failure) => setError(messageOf(failure, 'Billing details could not be saved')),
      },
    );
  };
  return (
    <form onSubmit={submit} className="mt-4 grid gap-4">
      {error && (
        <p role="alert" className="font-medium text-bad">
          {error}
        </p>
      )}
      <FormField label="Legal name">
        {(ids) => (
          <Input {...ids} name="legalName" defaultValue={initial.legalName ?? ''} required />
        )}
      </FormField>
      <FormField label="Billing email">
        {(ids) => (
          <Input
            {...ids}
            name="billingEmail"
            type="email"
            defaultValue={initial.billingEmail ?? ''}
          />
        )}
      </FormField>
      <FormField label="Address">
        {(ids) => (
          <Textarea {...ids} name="address" rows={3} defaultValue={initial.address ?? ''} />
        )}
      </FormField>
      <FormField label="Country" hint="Two-letter code, like US or DE">
        {(ids) => (
          <Input {...ids} name="country" maxLength={2} defaultValue={initial.country ?? ''} />
        )}
      </FormField>
      <FormField label="Tax ID" hint="VAT or other tax number; leave empty if you have none">
        {(ids) => <Input {...ids} name="taxId" defaultValue={initial.taxId ?? ''} />}
      </FormField>
      <div>
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? 'Saving…' : 'Save billing details'}
        </Button>
      </div>
    </form>
  );
}

function InvoicesSection() {
  const invoices = useInvoices();
  return (
    <section aria-labelledby="invoices-heading" className="mt-8">
      <Card>
        <h2 id="invoices-heading" className="text-xl font-bold">
          Invoices
        </h2>
        {invoices.isPending && <Spinner label="Loading invoices" />}
        {invoices.isError && (
          <p role="alert" className="mt-4 text-bad">
            {messageOf(invoices.error, 'Invoices could not be loaded')}
          </p>
        )}
        {invoices.data && invoices.data.invoices.length === 0 && (
          <p className="mt-4">No invoices yet: each charge and refund will be listed here.</p>
        )}
        {invoices.data && invoices.data.invoices.length > 0 && (
          <ul className="mt-4 divide-y divide-slate-200">
            {invoices.data.invoices.map((invoice) => (
              <li key={invoice.id} className="flex flex-wrap items-baseline gap-x-4 gap-y-1 py-3">
                <span className="font-semibold">
                  {invoice.kind === 'credit_note' ? 'Credit note' : 'Invoice'} {invoice.number}
                </span>
                <span>{formatDate(invoice.issuedAt)}</span>
                <span>
                  {invoice.kind === 'credit_note' ? '−' : ''}
                  {money(invoice.amountCents, invoice.currency)}
                </span>
                <span className="w-full min-w-0 break-words text-sm text-slate-700">
                  {invoice.description}
                </span>
                <a className="text-brand-700 underline" href={invoice.pdfUrl} download>
                  Download PDF<span className="sr-only"> of {invoice.number}</span>
                </a>
                {invoice.hostedUrl && (
                  <a
                    className="text-brand-700 underline"
                    href={invoice.hostedUrl}
                    target="_blank"
                    rel="noreferrer"
                  >
                    View at Stripe<span className="sr-only"> ({invoice.number})</span>
                  </a>
                )}
              </li>
            ))}
          </ul>
        )}
      </Card>
    </section>
  );
}
