import { useNavigate } from 'react-router';
import { useCurrentUser } from '../features/auth/api/get-current-user';
import { useLogout } from '../features/auth/api/logout';
import { DashboardLayout } from '../features/dashboard/components/dashboard-layout';
import { paths } from '../lib/paths';

/** The dashboard shell with the account it belongs to (composed here: features stay apart). */
export function DashboardFrame() {
  const user = useCurrentUser();
  const logout = useLogout();
  const navigate = useNavigate();
  return (
    <DashboardLayout
      email={user.data?.email}
      onSignOut={() =>
        logout.mutate(undefined, { onSettled: () => void navigate(paths.login.getHref()) })
      }
    />
  );
}
