import { ExternalLink, LineChart, RotateCcw, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { ownershipRules, type Domain, type DomainStatus } from '#contract/domains.js';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogTitle,
} from '../../../components/ui/dialog';
import { messageOf } from '../../../lib/api-client';
import { paths } from '../../../lib/paths';
import { cn } from '../../../lib/cn';
import { toast } from '../../../lib/toast-store';
import { useReactivateDomain, useRemoveDomain } from '../api/change-domain';
import { paymentRequiredOf } from '../api/payment-required';
import { formatUsd, monitoredStatuses } from '../domain-form';
import { formatScoreWithLabel } from '#contract/vocabulary.js';
import { formatDate, scoreColour } from '../format';
import { AddOnsPanel } from './add-ons-panel';
import type { Purchase } from './payment-dialog';
import { SiteAuditLine } from './site-audit-line';
import { VerificationPanel } from './verification-panel';

const statusStyles: Record<DomainStatus, string> = {
  trial: 'bg-blue-100 text-blue-900',
  active: 'bg-green-100 text-green-900',
  grace_period: 'bg-amber-100 text-amber-900',
  expired: 'bg-red-100 text-red-900',
  archived: 'bg-slate-200 text-slate-900',
};

function statusText(domain: Domain): string {
  switch (domain.status) {
    case 'trial':
      if (domain.trialDaysRemaining !== null) {
        return `Free month: ${domain.trialDaysRemaining} ${domain.trialDaysRemaining === 1 ? 'day' : 'days'} left`;
      }
      return domain.claimExpiresAt ? 'Waiting for verification' : 'Free month';
    case 'active':
      return 'Active';
    case 'grace_period':
      return domain.daysRemaining === null
        ? 'Grace period'
        : `Grace period: ${domain.daysRemaining} ${domain.daysRemaining === 1 ? 'day' : 'days'} left`;
    case 'expired':
      return 'Expired';
    case 'archived':
      return 'Archived';
  }
}

/** What a card says about the domain's state beyond the badge. */
function statusNote(domain: Domain): string | undefined {
  switch (domain.status) {
    case 'grace_period':
      return 'Monitoring continues during the grace period. Reactivate before it ends to keep the status page and badge online.';
    case 'expired':
      return 'Monitoring, the public status page and the badge have stopped. Your scan history is kept.';
    case 'archived':
      if (domain.releaseReason === 'verified_elsewhere') {
        return 'Released: another account proved it controls this site, so the domain is theirs now. Your scan history is kept; if the site is yours, reactivate it and verify ownership again.';
      }
      if (domain.releaseReason === 'claim_lapsed') {
        return `Released: ownership was not verified within ${ownershipRules.claimDays} days of adding it. Your scan history is kept.`;
      }
      return 'Monitoring is off and all scan history is kept. Reactivate to monitor it again.';
    case 'trial':
      return domain.claimExpiresAt && !domain.verification.verified
        ? `Verify ownership by ${formatDate(domain.claimExpiresAt)}, or the claim is released. Your free month starts when you verify, and until then another account that proves it controls the site takes it over.`
        : undefined;
    default:
      return domain.claimExpiresAt === null &&
        !domain.verification.verified &&
        monitoredStatuses.has(domain.status)
        ? 'Until you verify ownership, another account that proves it controls the site takes it over.'
        : undefined;
  }
}

/** One domain: its numbers, state, verification, add-ons and the actions its state allows. */
export function DomainCard({
  domain,
  onPurchase,
}: {
  domain: Domain;
  onPurchase: (purchase: Purchase) => void;
}) {
  const monitored = monitoredStatuses.has(domain.status);
  const note = statusNote(domain);
  const headingId = `domain-${domain.domain.replace(/[^a-z0-9]/gi, '-')}`;
  return (
    <li>
      <Card className="grid gap-4" aria-labelledby={headingId}>
        <div className="flex flex-wrap items-start justify-between gap-3">
          <div>
            <h3 id={headingId} className="text-lg font-bold break-all">
              {domain.domain}
            </h3>
            <p className="mt-1 flex flex-wrap items-center gap-2 text-sm">
              <span
                className={cn(
                  'rounded-full px-2 py-0.5 font-semibold',
                  statusStyles[domain.status],
                )}
              >
                {statusText(domain)}
              </span>
              <span className="text-slate-700">
                {formatUsd(domain.monthlyPrice)}/month · domain {domain.domainIndex}
              </span>
            </p>
          </div>
          <div className="flex flex-wrap gap-2">
            <Button asChild variant="outline" size="sm">
              <Link to={paths.dashboardDomain.getHref(domain.domain)}>
                <LineChart aria-hidden="true" className="h-4 w-4" />
                History and issues <span className="sr-only">of {domain.domain}</span>
              </Link>
            </Button>
            {monitored && domain.verification.verified && (
              <Button asChild variant="outline" size="sm">
                <a href={domain.publicPageUrl} target="_blank" rel="noopener noreferrer">
                  <ExternalLink aria-hidden="true" className="h-4 w-4" />
                  Status page{' '}
                  <span className="sr-only">of {domain.domain} (opens in a new tab)</span>
                </a>
              </Button>
            )}
            {monitored ? (
              <RemoveButton domain={domain.domain} />
            ) : (
              <ReactivateButton domain={domain.domain} onPurchase={onPurchase} />
            )}
          </div>
        </div>
        <dl className="grid grid-cols-2 gap-4 text-sm sm:grid-cols-4">
          <div>
            <dt className="text-slate-700">Score</dt>
            <dd
              className={cn(
                'text-xl font-bold',
                domain.complianceScore !== null && scoreColour(domain.complianceScore),
              )}
            >
              {domain.complianceScore === null ? '–' : formatScoreWithLabel(domain.complianceScore)}
            </dd>
          </div>
          <div>
            <dt className="text-slate-700">Issues</dt>
            <dd className="text-xl font-bold">{domain.issueCount}</dd>
          </div>
          <div>
            <dt className="text-slate-700">Last scan</dt>
            <dd className="font-semibold">
              {domain.lastScan ? formatDate(domain.lastScan) : 'Not scanned yet'}
            </dd>
          </div>
          {monitored && domain.currentPeriodEnd && (
            <div>
              <dt className="text-slate-700">
                {domain.status === 'trial' ? 'Free month ends' : 'Next charge'}
              </dt>
              <dd className="font-semibold">{formatDate(domain.currentPeriodEnd)}</dd>
            </div>
          )}
        </dl>
        {monitored && <SiteAuditLine domain={domain.domain} />}
        {note && <p className="text-sm text-slate-700">{note}</p>}
        {domain.status !== 'archived' && domain.status !== 'expired' && (
          <VerificationPanel domain={domain} />
        )}
        {monitored && <AddOnsPanel domain={domain.domain} onBuy={onPurchase} />}
      </Card>
    </li>
  );
}

function RemoveButton({ domain }: { domain: string }) {
  const [open, setOpen] = useState(false);
  const remove = useRemoveDomain();
  const confirm = async () => {
    try {
      await remove.mutateAsync(domain);
      setOpen(false);
      toast({
        title: 'Domain Archived',
        description: 'Domain monitoring disabled but all scan history preserved.',
        variant: 'success',
      });
    } catch (error) {
      toast({
        title: 'Failed to Remove Domain',
        description: messageOf(error, 'The domain could not be removed.'),
        variant: 'destructive',
      });
    }
  };
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <Button type="button" variant="outline" size="sm" onClick={() => setOpen(true)}>
        <Trash2 aria-hidden="true" className="h-4 w-4" />
        Remove <span className="sr-only">{domain}</span>
      </Button>
      <DialogContent>
        <DialogTitle>Remove {domain}?</DialogTitle>
        <DialogDescription>
          Monitoring stops and its public status page and badge go offline. All scan history is
          kept, and you can reactivate the domain later.
        </DialogDescription>
        <div className="mt-6 flex flex-wrap justify-end gap-3">
          <DialogClose asChild>
            <Button variant="outline">Keep monitoring</Button>
          </DialogClose>
          <Button variant="destructive" disabled={remove.isPending} onClick={() => void confirm()}>
            {remove.isPending ? 'Removing…' : 'Remove domain'}
          </Button>
        </div>
      </DialogContent>
    </Dialog>
  );
}

function ReactivateButton({
  domain,
  onPurchase,
}: {
  domain: string;
  onPurchase: (purchase: Purchase) => void;
}) {
  const reactivate = useReactivateDomain();
  const start = async () => {
    try {
      await reactivate.mutateAsync({ domain });
      toast({
        title: 'Domain Reactivated',
        description: `${domain} is monitored again.`,
        variant: 'success',
      });
    } catch (error) {
      const payment = paymentRequiredOf(error);
      if (payment) {
        onPurchase({ kind: 'reactivate', domain, pricing: payment.pricing });
        return;
      }
      toast({
        title: 'Failed to Reactivate Domain',
        description: messageOf(error, 'The domain could not be reactivated.'),
        variant: 'destructive',
      });
    }
  };
  return (
    <Button type="button" size="sm" disabled={reactivate.isPending} onClick={() => void start()}>
      <RotateCcw aria-hidden="true" className="h-4 w-4" />
      {reactivate.isPending ? 'Reactivating…' : 'Reactivate'}{' '}
      <span className="sr-only">{domain}</span>
    </Button>
  );
}
