import { LogOut, ShieldCheck } from 'lucide-react';
import { Link, NavLink, Outlet, useNavigate } from 'react-router';
import { SiteFooter } from '../components/layout/site-footer';
import { SkipLink } from '../components/layout/skip-link';
import { Button } from '../components/ui/button';
import { useCurrentUser } from '../features/auth/api/get-current-user';
import { useLogout } from '../features/auth/api/logout';
import { paths } from '../lib/paths';

const navClass = ({ isActive }: { isActive: boolean }) =>
  `rounded-md px-3 py-2 text-sm font-semibold ${isActive ? 'bg-brand-50 text-brand-800' : 'text-slate-900 hover:bg-slate-100'}`;

/** The frame of the signed-in screens (behind the protected-route gate). */
export function AppLayout() {
  const user = useCurrentUser();
  const logout = useLogout();
  const navigate = useNavigate();
  return (
    <div className="flex min-h-screen flex-col">
      <SkipLink />
      <header className="sticky top-0 z-40 border-b border-slate-200 bg-white">
        <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-4 px-4">
          <Link to={paths.home.getHref()} className="flex items-center gap-2 text-lg font-bold">
            <ShieldCheck aria-hidden="true" className="h-7 w-7 text-brand-600" />
            Conformly
          </Link>
          <nav aria-label="Account" className="flex items-center gap-1">
            <NavLink to={paths.dashboard.getHref()} className={navClass}>
              Dashboard
            </NavLink>
            <NavLink to={paths.scan.path} className={navClass}>
              New scan
            </NavLink>
            <span className="hidden px-2 text-sm text-slate-700 md:inline">{user.data?.email}</span>
            <Button
              variant="ghost"
              size="sm"
              onClick={() => {
                // Leave the guarded screens first (see DashboardFrame).
                void Promise.resolve(navigate(paths.login.getHref())).then(() => logout.mutate());
              }}
            >
              <LogOut aria-hidden="true" className="h-4 w-4" />
              Log out
            </Button>
          </nav>
        </div>
      </header>
      <main id="main-content" tabIndex={-1} className="flex-1 focus:outline-none">
        <Outlet />
      </main>
      <SiteFooter />
    </div>
  );
}
