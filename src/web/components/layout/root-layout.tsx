import { useEffect } from 'react';
import { Outlet, ScrollRestoration, useLocation } from 'react-router';
import { trackPageView } from '../../lib/analytics';

/**
 * Records a page view on every route change (spec §1) and restores scroll positions.
 * `onFirstScreen` runs once the first screen (mounted with this layout, after the router's start)
 * has mounted, after every effect below it.
 */
export function RootLayout({ onFirstScreen }: { onFirstScreen?: () => void }) {
  const location = useLocation();
  useEffect(() => onFirstScreen?.(), [onFirstScreen]);
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
