import { LogOut, ShieldCheck } from 'lucide-react';
import { Link, NavLink, Outlet, useNavigate } from 'react-router';
import { HeaderMenu } from '../components/layout/header-menu';
import { publicTools } from '../components/layout/public-tools';
import { SiteFooter } from '../components/layout/site-footer';
import { SkipLink } from '../components/layout/skip-link';
import { Button } from '../components/ui/button';
import { useCurrentUser } from '../features/auth/api/get-current-user';
import { useLogout } from '../features/auth/api/logout';
import { paths } from '../lib/paths';

const navClass = ({ isActive }: { isActive: boolean }) =>
  `rounded-md px-3 py-2 text-sm font-semibold whitespace-nowrap ${isActive ? 'bg-brand-50 text-brand-800' : 'text-slate-900 hover:bg-slate-100'}`;

/**
 * The frame of the signed-in screens outside the dashboard (behind the protected-route gate):
 * the account's links side by side on wide screens, behind a Menu disclosure on phones, where
 * they also lead to every public tool.
 */
export function AppLayout() {
  const user = useCurrentUser();
  const logout = useLogout();
  const navigate = useNavigate();
  const signOut = () => {
    // Leave the guarded screens first (see DashboardFrame).
    void Promise.resolve(navigate(paths.login.getHref())).then(() => logout.mutate());
  };
  return (
    <div className="flex min-h-screen flex-col">
      <SkipLink />
      <header className="sticky top-0 z-40 border-b border-slate-200 bg-white">
        <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-4 px-4">
          <Link
            to={paths.home.getHref()}
            className="flex shrink-0 items-center gap-2 text-lg font-bold"
          >
            <ShieldCheck aria-hidden="true" className="h-7 w-7 text-brand-600" />
            Conformly
          </Link>
          <nav aria-label="Account" className="hidden items-center gap-1 md:flex">
            <NavLink to={paths.dashboard.getHref()} end className={navClass}>
              Dashboard
            </NavLink>
            <NavLink to={paths.scan.path} className={navClass}>
              New scan
            </NavLink>
            <NavLink to={paths.smartScan.getHref()} className={navClass}>
              Smart scan
            </NavLink>
            <span className="hidden truncate px-2 text-sm text-slate-700 lg:inline">
              {user.data?.email}
            </span>
            <Button variant="ghost" size="sm" onClick={signOut}>
              <LogOut aria-hidden="true" className="h-4 w-4" />
              Log out
            </Button>
          </nav>
          <HeaderMenu className="md:hidden">
            <nav aria-label="Account" className="grid gap-4">
              <ul className="grid gap-1">
                <li>
                  <NavLink to={paths.dashboard.getHref()} end className={navClass}>
                    Dashboard
                  </NavLink>
                </li>
                <li>
                  <NavLink to={paths.scan.path} className={navClass}>
                    New scan
                  </NavLink>
                </li>
              </ul>
              <div className="grid gap-4 border-t border-slate-200 pt-4 sm:grid-cols-2">
                {publicTools.map((group) => (
                  <div key={group.label}>
                    <h2 className="px-3 text-xs font-bold tracking-wide text-slate-700 uppercase">
                      {group.label}
                    </h2>
                    <ul className="mt-1 grid">
                      {group.links.map((link) => (
                        <li key={link.href}>
                          <NavLink to={link.href} className={navClass}>
                            {link.label}
                          </NavLink>
                        </li>
                      ))}
                    </ul>
                  </div>
                ))}
              </div>
              <div className="border-t border-slate-200 pt-4">
                {user.data?.email && (
                  <p className="truncate px-3 pb-2 text-sm text-slate-700">{user.data.email}</p>
                )}
                <Button variant="outline" onClick={signOut}>
                  <LogOut aria-hidden="true" className="h-4 w-4" />
                  Log out
                </Button>
              </div>
            </nav>
          </HeaderMenu>
        </div>
      </header>
      <main id="main-content" tabIndex={-1} className="flex-1 focus:outline-none">
        <Outlet />
      </main>
      <SiteFooter />
    </div>
  );
}
