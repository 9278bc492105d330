/**
 * The public screens every route-wide end-to-end check visits (our own scanner, the layout
 * widths): one list, so a new public screen is checked by all of them.
 */
export const publicRoutes = [
  '/',
  '/app/login',
  '/app/signup',
  '/app/reset-password',
  '/app/reset-password/some-token',
  '/no/such/page',
  '/raw-results',
  '/live-scan',
  '/real-scan',
  '/cinematic-scan',
  '/premium-scan',
  '/modern-scan',
  '/vpat',
  '/multi-page-audit',
  '/smart-scan',
  '/smart-discovery',
  '/about',
  '/privacy',
  '/terms',
  '/app/pricing',
  '/status',
  '/status/example.com',
  '/audit/example.com',
];
