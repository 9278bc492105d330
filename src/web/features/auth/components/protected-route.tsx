import { Navigate, Outlet, useLocation } from 'react-router';
import { paths } from '../../../lib/paths';
import { Spinner } from '../../../components/ui/spinner';
import { useCurrentUser } from '../api/get-current-user';

/**
 * Spec §2: a spinner while the current user loads; no user (or a failed check) sends the visitor
 * to /app/login and nothing of the protected screen renders. The address asked for travels as
 * `next`, so logging in comes back to it.
 */
export function ProtectedRoute() {
  const user = useCurrentUser();
  const location = useLocation();
  if (user.isPending) return <Spinner label="Checking your session" className="min-h-[50vh]" />;
  if (user.isError || !user.data) {
    const next = `${location.pathname}${location.search}${location.hash}`;
    return <Navigate to={paths.login.getHref(undefined, next)} replace />;
  }
  return <Outlet />;
}
