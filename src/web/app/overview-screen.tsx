import { PlanNotice } from '../features/dashboard/components/plan-gate';
import { DashboardPage } from '../features/scans/components/dashboard-page';

/**
 * The overview for now: the plan card for an account without Compliance Shield, then the
 * account's scans, which stay reachable to free accounts.
 */
export function OverviewScreen() {
  return (
    <>
      <PlanNotice />
      <DashboardPage />
    </>
  );
}
