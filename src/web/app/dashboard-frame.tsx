import { lazy, Suspense } from 'react';
import { useMatch, useNavigate } from 'react-router';
import { useWelcomeTourDue } from '../features/account/api/tour';
import { useCurrentUser } from '../features/auth/api/get-current-user';
import { useLogout } from '../features/auth/api/logout';
import { DashboardLayout } from '../features/dashboard/components/dashboard-layout';
import { OrganisationSwitcher } from '../features/team/components/organisation-switcher';
import { paths } from '../lib/paths';

/**
 * The welcome tour (a Radix dialog and the catalogue's prices) shows once per account: its code
 * loads only when it is due, not with every dashboard screen (issue 27).
 */
const WelcomeTour = lazy(async () => ({
  default: (await import('../features/account/components/welcome-tour')).WelcomeTour,
}));

function WelcomeTourWhenDue() {
  const due = useWelcomeTourDue();
  if (!due) return null;
  return (
    <Suspense fallback={null}>
      <WelcomeTour />
    </Suspense>
  );
}

/** The dashboard shell with the account it belongs to (composed here: features stay apart). */
export function DashboardFrame() {
  // Mounted behind the session gate, which has just read the session.
  const user = useCurrentUser({ refetchOnMount: false });
  const logout = useLogout();
  const navigate = useNavigate();
  const onOverview = useMatch({ path: paths.dashboard.path, end: true });
  return (
    <>
      {/* Spec §2: the welcome tour, on the overview, once per account with the plan. */}
      {onOverview && <WelcomeTourWhenDue />}
      <DashboardLayout
        email={user.data?.email}
        organisationSwitcher={<OrganisationSwitcher />}
        onSignOut={() => {
          // Leave the guarded screens first: signed out on them, the guard would send the visitor
          // to log in with this page as `next`, which someone who chose to leave does not want.
          void Promise.resolve(navigate(paths.login.getHref())).then(() => logout.mutate());
        }}
      />
    </>
  );
}
