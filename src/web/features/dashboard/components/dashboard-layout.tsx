import {
  BarChart3,
  FileText,
  Globe,
  LayoutDashboard,
  LogOut,
  Menu,
  ScanSearch,
  MessageSquareWarning,
  Settings,
  ShieldCheck,
  Award,
} from 'lucide-react';
import { Suspense, useRef, useState, type ComponentType, type ReactNode } from 'react';
import { Link, NavLink, Outlet } from 'react-router';
import { complianceShieldPlan } from '#contract/catalogue.js';
import {
  hasActiveSubscription,
  useSubscriptionStatus,
} from '../../../api/billing/subscription-status';
import { primaryTools } from '../../../components/layout/public-tools';
import { SkipLink } from '../../../components/layout/skip-link';
import { paths } from '../../../lib/paths';
import { cn } from '../../../lib/cn';
import { loadOnIntent } from '../../../lib/load-on-intent';

const { Component: DashboardDrawer, intent: drawerIntent } = loadOnIntent(
  async () => (await import('./dashboard-drawer')).DashboardDrawer,
);

interface Section {
  label: string;
  href: string;
  icon: ComponentType<{ className?: string; 'aria-hidden'?: boolean | 'true' }>;
  /** Overview matches only its own address, not every section below it. */
  end?: boolean;
}

/** Spec dashboard-area §2: the six sections, in the sidebar's order. */
const sections: Section[] = [
  { label: 'Overview', href: paths.dashboard.getHref(), icon: LayoutDashboard, end: true },
  { label: 'Domains', href: paths.dashboardDomains.getHref(), icon: Globe },
  { label: 'Complaints', href: paths.dashboardComplaints.getHref(), icon: MessageSquareWarning },
  { label: 'Badge', href: paths.dashboardBadge.getHref(), icon: Award },
  { label: 'Analytics', href: paths.dashboardAnalytics.getHref(), icon: BarChart3 },
  { label: 'Reports', href: paths.dashboardReports.getHref(), icon: FileText },
];

const itemClass = ({ isActive }: { isActive: boolean }) =>
  cn(
    'flex items-center gap-3 rounded-md px-3 py-2 text-sm font-semibold',
    isActive ? 'bg-brand-50 text-brand-800' : 'text-slate-900 hover:bg-slate-100',
  );

export interface DashboardLayoutProps {
  /** The signed-in account's address, shown under the sign-out button. */
  email: string | undefined;
  /** Spec §2: calls the logout endpoint, then goes to /app/login. */
  onSignOut: () => void;
  /** Chooses the organisation the dashboard works in (shown when there is a choice). */
  organisationSwitcher?: ReactNode;
}

/**
 * The frame of /app/dashboard/*: a sidebar on wide screens, a drawer behind a menu button on
 * narrow ones (a Radix dialog: focus moves in, Escape closes it, focus returns to the button),
 * whose code loads on the way to the first press rather than with the screen (issue 27).
 */
export function DashboardLayout({ email, onSignOut, organisationSwitcher }: DashboardLayoutProps) {
  const [drawerOpen, setDrawerOpen] = useState(false);
  // The drawer mounts at the first press and stays mounted after it.
  const [drawerUsed, setDrawerUsed] = useState(false);
  const menuButton = useRef<HTMLButtonElement>(null);
  return (
    <div className="min-h-screen bg-slate-50 lg:grid lg:grid-cols-[16rem_1fr]">
      <SkipLink />
      <header className="sticky top-0 z-40 flex h-16 items-center justify-between gap-4 border-b border-slate-200 bg-white px-4 lg:hidden">
        <ProductName />
        <button
          ref={menuButton}
          type="button"
          aria-haspopup="dialog"
          aria-expanded={drawerOpen}
          // The drawer's code (Radix Dialog and its focus and scroll locks, about 38 KB) is not
          // needed to show the screen: fetched when a pointer or focus nears the button, so it
          // is there by the time the button is pressed.
          {...drawerIntent}
          onClick={() => {
            setDrawerUsed(true);
            setDrawerOpen(true);
          }}
          className="inline-flex h-10 items-center gap-2 rounded-md border border-slate-400 px-3 text-sm font-semibold text-slate-900 hover:bg-slate-100"
        >
          <Menu aria-hidden="true" className="h-5 w-5" />
          Menu
        </button>
        {drawerUsed && (
          <Suspense fallback={null}>
            <DashboardDrawer open={drawerOpen} onOpenChange={setDrawerOpen} menuButton={menuButton}>
              <SidebarContent
                email={email}
                organisationSwitcher={organisationSwitcher}
                onNavigate={() => setDrawerOpen(false)}
                onSignOut={() => {
                  setDrawerOpen(false);
                  onSignOut();
                }}
              />
            </DashboardDrawer>
          </Suspense>
        )}
      </header>
      <aside
        aria-label="Dashboard"
        className="sticky top-0 hidden h-screen flex-col overflow-y-auto border-r border-slate-200 bg-white p-4 lg:flex"
      >
        <SidebarContent
          email={email}
          organisationSwitcher={organisationSwitcher}
          onSignOut={onSignOut}
        />
      </aside>
      <main id="main-content" tabIndex={-1} className="min-w-0 focus:outline-none">
        <Outlet />
      </main>
    </div>
  );
}

function ProductName() {
  return (
    <Link
      to={paths.home.getHref()}
      className="flex items-center gap-2 rounded-md text-lg font-bold text-slate-900"
    >
      <ShieldCheck aria-hidden="true" className="h-7 w-7 text-brand-600" />
      Conformly
    </Link>
  );
}

function SidebarContent({
  email,
  organisationSwitcher,
  onNavigate,
  onSignOut,
}: {
  email: string | undefined;
  organisationSwitcher?: ReactNode;
  onNavigate?: () => void;
  onSignOut: () => void;
}) {
  const status = useSubscriptionStatus();
  const active = hasActiveSubscription(status.data);
  return (
    <div className="flex flex-1 flex-col gap-6">
      <div className="hidden lg:block">
        <ProductName />
      </div>
      <div className="flex items-center gap-2">
        <p className="text-sm font-semibold text-slate-700">{complianceShieldPlan.product}</p>
        {active && (
          <span className="rounded-full bg-green-100 px-2 py-0.5 text-xs font-bold text-green-900">
            Active
          </span>
        )}
      </div>
      {organisationSwitcher}
      <nav aria-label="Dashboard sections">
        <ul className="grid gap-1">
          {sections.map(({ label, href, icon: Icon, end }) => (
            <li key={href}>
              <NavLink to={href} end={end ?? false} className={itemClass} onClick={onNavigate}>
                <Icon aria-hidden="true" className="h-5 w-5 shrink-0" />
                {label}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <nav aria-label="Tools">
        <NavLink to={paths.scan.getHref()} className={itemClass} onClick={onNavigate}>
          <ScanSearch aria-hidden="true" className="h-5 w-5 shrink-0" />
          New scan
        </NavLink>
        <ul className="mt-1 grid gap-0.5 pl-8 text-sm">
          {primaryTools.map((tool) => (
            <li key={tool.href}>
              <Link
                to={tool.href}
                onClick={onNavigate}
                className="block rounded-md px-3 py-1.5 font-medium text-slate-800 hover:bg-slate-100"
              >
                {tool.label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <div className="mt-auto grid gap-1 border-t border-slate-200 pt-4">
        <NavLink to={paths.dashboardSettings.getHref()} className={itemClass} onClick={onNavigate}>
          <Settings aria-hidden="true" className="h-5 w-5 shrink-0" />
          Settings
        </NavLink>
        <button
          type="button"
          onClick={onSignOut}
          className="flex items-center gap-3 rounded-md px-3 py-2 text-left text-sm font-semibold text-slate-900 hover:bg-slate-100"
        >
          <LogOut aria-hidden="true" className="h-5 w-5 shrink-0" />
          Sign out
        </button>
        {email && <p className="truncate px-3 pt-2 text-xs text-slate-700">{email}</p>}
      </div>
    </div>
  );
}
