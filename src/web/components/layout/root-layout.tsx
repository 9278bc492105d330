import { useEffect } from 'react';
import { Outlet, ScrollRestoration, useLocation } from 'react-router';
import { trackPageView } from '../../lib/analytics';

/** Records a page view on every route change (spec §1) and restores scroll positions. */
export function RootLayout() {
  const location = useLocation();
  useEffect(() => {
    // The page sets its title in its own effect, which runs first (children before parents).
    trackPageView(location.pathname + location.search, document.title);
  }, [location.pathname, location.search]);
  return (
    <>
      <Outlet />
      <ScrollRestoration />
    </>
  );
}
