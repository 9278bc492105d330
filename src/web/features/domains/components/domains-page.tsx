import { useCallback, useEffect, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import type { Domain, DomainStatus } from '#contract/domains.js';
import { Spinner } from '../../../components/ui/spinner';
import { messageOf } from '../../../lib/api-client';
import { toast } from '../../../lib/toast-store';
import { usePageTitle } from '../../../lib/page-title';
import { paths } from '../../../lib/paths';
import { useDomains } from '../api/list-domains';
import { nextDomainPrice } from '../domain-form';
import { AddDomainDialog } from './add-domain-dialog';
import { takePendingPurchase, useCompletePurchase } from './complete-purchase';
import { DomainCard } from './domain-card';
import { PaymentDialog, type Purchase } from './payment-dialog';
import { PricingDialog } from './pricing-dialog';
import { SubscriptionRequired } from './subscription-required';
import { defaultMonitorPageBudget } from '#contract/site-monitoring.js';

/** Spec §2: the sections of the Domains page, in order. */
const groups: { title: string; statuses: DomainStatus[]; empty?: string }[] = [
  {
    title: 'Active Domains',
    statuses: ['trial', 'active'],
    empty: 'No domain is monitored yet. Add one to start.',
  },
  { title: 'Grace Period Domains', statuses: ['grace_period'] },
  { title: 'Expired Domains', statuses: ['expired'] },
  { title: 'Archived Domains', statuses: ['archived'] },
];

/** /app/dashboard/domains: the account's domains by state, with the payment and pricing dialogs. */
export function DomainsPage() {
  usePageTitle('Domains');
  const domains = useDomains();
  const [purchase, setPurchase] = useState<Purchase | undefined>();
  const closePayment = useCallback(() => setPurchase(undefined), []);
  useReturnFromCardRedirect();

  return (
    <div className="mx-auto max-w-5xl px-4 py-10">
      <h1 className="text-3xl font-bold">Domains</h1>
      {domains.isPending && <Spinner label="Loading your domains" />}
      {domains.isError && (
        <p role="alert" className="mt-6 text-bad">
          {messageOf(domains.error, 'Your domains could not be loaded.')}
        </p>
      )}
      {domains.data?.kind === 'payment-required' && <SubscriptionRequired />}
      {domains.data?.kind === 'domains' && (
        <DomainGroups domains={domains.data.domains} onPurchase={setPurchase} />
      )}
      <PaymentDialog purchase={purchase} onClose={closePayment} />
    </div>
  );
}

function DomainGroups({
  domains,
  onPurchase,
}: {
  domains: Domain[];
  onPurchase: (purchase: Purchase) => void;
}) {
  // The next domain's position, as the server counts it: every domain not archived holds one.
  const heldPositions = domains.filter((domain) => domain.status !== 'archived').length;
  return (
    <>
      <p className="mt-2 max-w-2xl text-slate-700">
        Every monitored domain gets a weekly site audit of up to {defaultMonitorPageBudget} pages
        (its start page, pinned pages, and pages from its sitemaps and navigation), and a public
        status page and badge once you verify it is yours. To check a single page now,{' '}
        <Link to={paths.scan.getHref()} className="font-semibold text-brand-600 underline">
          run a scan
        </Link>
        .
      </p>
      {groups.map(({ title, statuses, empty }) => {
        const members = domains.filter((domain) => statuses.includes(domain.status));
        if (members.length === 0 && !empty) return null;
        const id = `group-${statuses[0]}`;
        const active = statuses.includes('active');
        return (
          <section key={title} aria-labelledby={id} className="mt-10">
            <div className="flex flex-wrap items-center justify-between gap-3">
              <h2 id={id} className="text-xl font-bold">
                {title} ({members.length})
              </h2>
              {active && (
                <div className="flex flex-wrap gap-2">
                  <PricingDialog />
                  <AddDomainDialog
                    nextPrice={nextDomainPrice(domains)}
                    domainCount={heldPositions}
                    onPaymentRequired={onPurchase}
                  />
                </div>
              )}
            </div>
            {members.length === 0 ? (
              <p className="mt-4 text-slate-700">{empty}</p>
            ) : (
              <ul className="mt-4 grid gap-4">
                {members.map((domain) => (
                  <DomainCard key={domain.domain} domain={domain} onPurchase={onPurchase} />
                ))}
              </ul>
            )}
          </section>
        );
      })}
    </>
  );
}

/**
 * Back from the card's bank (Stripe's redirect, with `payment_intent` and `redirect_status`):
 * complete what was being bought, once, and take the parameters out of the address.
 */
function useReturnFromCardRedirect() {
  const [search, setSearch] = useSearchParams();
  const completePurchase = useCompletePurchase();
  const handled = useRef(false);
  const paymentIntentId = search.get('payment_intent');
  const redirectStatus = search.get('redirect_status');
  useEffect(() => {
    if (!paymentIntentId || handled.current) return;
    handled.current = true;
    setSearch({}, { replace: true });
    const purchase = takePendingPurchase(paymentIntentId);
    if (!purchase) return;
    if (redirectStatus === 'succeeded' || redirectStatus === 'processing') {
      void completePurchase(purchase, paymentIntentId);
    } else {
      toast({
        title: 'Payment Failed',
        description: 'Payment could not be processed',
        variant: 'destructive',
      });
    }
  }, [paymentIntentId, redirectStatus, setSearch, completePurchase]);
}
