import { Navigate, Outlet, useLocation } from 'react-router';
import { paths } from '../../../lib/paths';
import { Spinner } from '../../../components/ui/spinner';
import { useCurrentUser } from '../api/get-current-user';

/**
 * Spec §2: a spinner while the current user loads; no user (or a failed check) sends the visitor
 * to /app/login and nothing of the protected screen renders.
 */
export function ProtectedRoute() {
  const user = useCurrentUser();
  const location = useLocation();
  if (user.isPending) return <Spinner label="Checking your session" className="min-h-[50vh]" />;
  if (user.isError || !user.data) {
    return <Navigate to={paths.login.getHref()} replace state={{ from: location }} />;
  }
  return <Outlet />;
}
