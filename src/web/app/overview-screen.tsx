import { useSubscriptionStatus } from '../api/billing/subscription-status';
import { Spinner } from '../components/ui/spinner';
import { useOverview } from '../features/dashboard/api/get-overview';
import { PlanNotice } from '../features/dashboard/components/plan-gate';
import { OverviewPage } from '../features/dashboard/components/overview-page';
import { DashboardPage } from '../features/scans/components/dashboard-page';

/**
 * /app/dashboard: the overview with the account's scans on its second tab; for an account
 * without Compliance Shield, the plan card above its scans, which stay reachable to free accounts.
 * One spinner until both the plan and the overview are known: the plan card appearing above a
 * spinner that is still waiting would push it down the page (a layout shift).
 */
export function OverviewScreen() {
  const status = useSubscriptionStatus();
  const overview = useOverview();
  if (status.isPending || overview.isPending)
    return <Spinner label="Loading your dashboard" className="min-h-[50vh]" />;
  return (
    <>
      <PlanNotice />
      <OverviewPage
        overview={overview}
        renderScans={(embedded) => <DashboardPage embedded={embedded} />}
      />
    </>
  );
}
