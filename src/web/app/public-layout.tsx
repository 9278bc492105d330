import { Outlet } from 'react-router';
import { SiteFooter } from '../components/layout/site-footer';
import { SiteHeader } from '../components/layout/site-header';
import { SkipLink } from '../components/layout/skip-link';
import { useCurrentUser } from '../features/auth/api/get-current-user';

/** The frame of the public screens; a signed-in visitor sees the way back to the dashboard. */
export function PublicLayout() {
  const user = useCurrentUser();
  return (
    <div className="flex min-h-screen flex-col">
      <SkipLink />
      <SiteHeader signedIn={!!user.data} />
      {/* At least a screen high: the footer starts below the fold, so a screen whose content
          arrives after its data does not push a visible footer down (layout shift). */}
      <main id="main-content" tabIndex={-1} className="min-h-screen flex-1 focus:outline-none">
        <Outlet />
      </main>
      <SiteFooter />
    </div>
  );
}
