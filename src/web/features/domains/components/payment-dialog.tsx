import { useMutation } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import type { AddOn, DomainPricing } from '#contract/domains.js';
import { createPaymentIntent } from '../../../api/payments/create-payment-intent';
import { usePaymentConfig } from '../../../api/payments/payment-config';
import { CardPayment } from '../../../components/payment/card-payment';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogTitle,
} from '../../../components/ui/dialog';
import { Spinner } from '../../../components/ui/spinner';
import { paths } from '../../../lib/paths';
import { toast } from '../../../lib/toast-store';
import { formatUsd } from '../domain-form';
import { rememberPendingPurchase, useCompletePurchase } from './complete-purchase';

/** What the payment dialog is paying for (spec §4 payment flow). */
export type Purchase =
  | { kind: 'add-domain'; domain: string; pricing: DomainPricing | undefined }
  | { kind: 'reactivate'; domain: string; pricing: DomainPricing | undefined }
  | { kind: 'add-on'; domain: string; addOn: AddOn; pages: number; price: number };

const titles: Record<Purchase['kind'], string> = {
  'add-domain': 'Add Domain',
  reactivate: 'Reactivate Domain',
  'add-on': 'Buy Add-on',
};

/**
 * The payment dialog: asks the server for a payment intent (the server prices it), shows the
 * card form (demo or Stripe), and once the provider took the payment completes the purchase,
 * reactivation or domain addition.
 */
export function PaymentDialog({
  purchase,
  onClose,
}: {
  purchase: Purchase | undefined;
  onClose: () => void;
}) {
  return (
    <Dialog open={!!purchase} onOpenChange={(open) => !open && onClose()}>
      {purchase && (
        <DialogContent>
          <DialogTitle>{titles[purchase.kind]}</DialogTitle>
          <DialogDescription>{describe(purchase)}</DialogDescription>
          <PaymentBody purchase={purchase} onClose={onClose} />
        </DialogContent>
      )}
    </Dialog>
  );
}

function describe(purchase: Purchase): string {
  switch (purchase.kind) {
    case 'add-domain':
      return `Add ${purchase.domain} to Compliance Shield monitoring.`;
    case 'reactivate':
      return `Bring ${purchase.domain} back under Compliance Shield monitoring.`;
    case 'add-on':
      return `${purchase.addOn.name} for ${purchase.domain}, ${purchase.pages} ${purchase.pages === 1 ? 'page' : 'pages'}. A one-time purchase.`;
  }
}

function PaymentBody({ purchase, onClose }: { purchase: Purchase; onClose: () => void }) {
  const config = usePaymentConfig();
  const intent = useMutation({ mutationFn: createPaymentIntent });
  const asked = useRef(false);
  const completePurchase = useCompletePurchase();

  useEffect(() => {
    // Once per opened dialog (a ref survives React's development double effect).
    if (asked.current) return;
    asked.current = true;
    intent.mutate(
      {
        domain: purchase.domain,
        ...(purchase.kind === 'add-on'
          ? { addOnId: purchase.addOn.id, pages: purchase.pages, amount: purchase.price }
          : {
              isReactivation: purchase.kind === 'reactivate',
              ...(purchase.pricing ? { amount: purchase.pricing.amount } : {}),
            }),
      },
      {
        onError: () => {
          toast({
            title: 'Payment Setup Failed',
            description: 'Unable to initialize payment. Please try again.',
            variant: 'destructive',
          });
          onClose();
        },
      },
    );
  }, [intent, purchase, onClose]);

  useEffect(() => {
    if (!config.isError) return;
    toast({
      title: 'Payment Setup Failed',
      description: 'Unable to initialize payment. Please try again.',
      variant: 'destructive',
    });
    onClose();
  }, [config.isError, onClose]);

  if (!intent.data || !config.data) {
    return <Spinner label="Preparing your payment" />;
  }
  const paymentIntentId = intent.data.paymentIntentId;

  const complete = async () => {
    if (await completePurchase(purchase, paymentIntentId)) onClose();
  };

  const monthly =
    purchase.kind === 'add-on' ? undefined : (purchase.pricing?.monthlyPrice ?? undefined);
  const amount = intent.data.amount;
  return (
    <div className="mt-4 grid gap-4">
      <dl className="grid grid-cols-[1fr_auto] gap-x-4 gap-y-1 rounded-md bg-slate-50 p-4 text-sm">
        <dt>Due today</dt>
        <dd className="font-bold">
          {formatUsd(amount)} {intent.data.currency}
        </dd>
        {monthly !== undefined && (
          <>
            <dt>Then monthly</dt>
            <dd className="font-semibold">{formatUsd(monthly)}/month</dd>
          </>
        )}
      </dl>
      {monthly !== undefined && amount === 0 && (
        <p className="text-sm font-semibold text-ok">First month free. Cancel anytime.</p>
      )}
      <CardPayment
        config={config.data}
        clientSecret={intent.data.clientSecret}
        returnPath={paths.dashboardDomains.getHref()}
        submitLabel={amount > 0 ? `Pay ${formatUsd(amount)}` : 'Confirm'}
        beforeRedirect={() => rememberPendingPurchase(purchase, paymentIntentId)}
        onConfirmed={complete}
      />
    </div>
  );
}
