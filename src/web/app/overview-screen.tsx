import { PlanNotice } from '../features/dashboard/components/plan-gate';
import { OverviewPage } from '../features/dashboard/components/overview-page';
import { DashboardPage } from '../features/scans/components/dashboard-page';

/**
 * /app/dashboard: the overview with the account's scans on its second tab; for an account
 * without Compliance Shield, the plan card above its scans, which stay reachable to free accounts.
 */
export function OverviewScreen() {
  return (
    <>
      <PlanNotice />
      <OverviewPage renderScans={(embedded) => <DashboardPage embedded={embedded} />} />
    </>
  );
}
