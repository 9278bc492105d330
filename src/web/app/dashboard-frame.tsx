import { useMatch, useNavigate } from 'react-router';
import { WelcomeTour } from '../features/account/components/welcome-tour';
import { useCurrentUser } from '../features/auth/api/get-current-user';
import { useLogout } from '../features/auth/api/logout';
import { DashboardLayout } from '../features/dashboard/components/dashboard-layout';
import { OrganisationSwitcher } from '../features/team/components/organisation-switcher';
import { paths } from '../lib/paths';

/** The dashboard shell with the account it belongs to (composed here: features stay apart). */
export function DashboardFrame() {
  const user = useCurrentUser();
  const logout = useLogout();
  const navigate = useNavigate();
  const onOverview = useMatch({ path: paths.dashboard.path, end: true });
  return (
    <>
      {/* Spec §2: the welcome tour, on the overview, once per account with the plan. */}
      {onOverview && <WelcomeTour />}
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
