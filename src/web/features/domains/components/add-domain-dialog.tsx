import { zodResolver } from '@hookform/resolvers/zod';
import { ownershipRules } from '#contract/domains.js';
import { Plus } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { Button } from '../../../components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogTitle,
  DialogTrigger,
} from '../../../components/ui/dialog';
import { FormField } from '../../../components/ui/form-field';
import { Input } from '../../../components/ui/input';
import { messageOf } from '../../../lib/api-client';
import { toast } from '../../../lib/toast-store';
import { useAddDomain } from '../api/change-domain';
import { paymentRequiredOf } from '../api/payment-required';
import { addDomainFormSchema, formatUsd, invalidDomainTitle } from '../domain-form';
import type { Purchase } from './payment-dialog';

type AddDomainForm = z.input<typeof addDomainFormSchema>;

/**
 * 'Add Domain' with the next tier's price on the button. The first try asks the server; a 402
 * with requiresPayment opens the payment dialog with the price the server quoted.
 */
export function AddDomainDialog({
  nextPrice,
  domainCount,
  onPaymentRequired,
}: {
  nextPrice: number;
  domainCount: number;
  onPaymentRequired: (purchase: Purchase) => void;
}) {
  const [open, setOpen] = useState(false);
  const addDomain = useAddDomain();
  const form = useForm<AddDomainForm, unknown, z.output<typeof addDomainFormSchema>>({
    resolver: zodResolver(addDomainFormSchema),
    defaultValues: { domain: '', startUrl: '' },
  });
  const { errors } = form.formState;

  const onSubmit = form.handleSubmit(
    async ({ domain, startUrl }) => {
      try {
        await addDomain.mutateAsync({
          domain,
          ...(startUrl ? { startUrl } : {}),
          newDomainIndex: domainCount + 1,
          amount: nextPrice,
          currency: 'usd',
        });
        toast({
          title: 'Domain Added',
          description: `${domain} is now monitored by Compliance Shield.`,
          variant: 'success',
        });
        setOpen(false);
        form.reset();
      } catch (error) {
        // Spec §8: a 402 ('Payment required for additional domain') is the way to the payment
        // dialog, not an error, so it shows no toast.
        const payment = paymentRequiredOf(error);
        if (payment) {
          setOpen(false);
          form.reset();
          onPaymentRequired({
            kind: 'add-domain',
            domain: payment.pricing?.domain ?? domain,
            pricing: payment.pricing,
          });
          return;
        }
        toast({
          title: 'Failed to Add Domain',
          description: messageOf(error, 'The domain could not be added.'),
          variant: 'destructive',
        });
      }
    },
    (invalid) => {
      if (invalid.domain?.message) {
        toast({
          title: invalidDomainTitle,
          description: invalid.domain.message,
          variant: 'destructive',
        });
      }
    },
  );

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) form.reset();
      }}
    >
      <DialogTrigger asChild>
        <Button>
          <Plus aria-hidden="true" className="h-4 w-4" />
          Add Domain ({formatUsd(nextPrice)}/month)
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogTitle>Add Domain</DialogTitle>
        <DialogDescription>
          Monitor another website. This domain costs {formatUsd(nextPrice)}/month as your domain
          number {domainCount + 1}. A domain you have not had before starts free: its free month
          begins once you verify that you control the site, within {ownershipRules.claimDays} days.
          You can have up to {ownershipRules.maxUnverifiedClaims} domains waiting for verification.
        </DialogDescription>
        <form noValidate onSubmit={(event) => void onSubmit(event)} className="mt-4 grid gap-4">
          <FormField
            label="Domain"
            error={errors.domain?.message}
            hint="The site's address without https://, such as example.com."
          >
            {(ids) => (
              <Input
                {...ids}
                autoComplete="url"
                inputMode="url"
                spellCheck={false}
                placeholder="example.com"
                {...form.register('domain')}
              />
            )}
          </FormField>
          <FormField
            label="Start address (optional)"
            error={errors.startUrl?.message}
            hint="Where its weekly site audit starts finding pages, if not https:// and the domain: a www. host, a path or a port."
          >
            {(ids) => (
              <Input
                {...ids}
                type="url"
                inputMode="url"
                spellCheck={false}
                placeholder="https://www.example.com/"
                {...form.register('startUrl')}
              />
            )}
          </FormField>
          <Button type="submit" disabled={addDomain.isPending}>
            {addDomain.isPending ? 'Adding…' : 'Continue'}
          </Button>
        </form>
      </DialogContent>
    </Dialog>
  );
}
