import type { QueryClient } from '@tanstack/react-query';
import type { ComponentType } from 'react';
import { createBrowserRouter, type LoaderFunctionArgs } from 'react-router';
import { NotFoundPage } from '../components/layout/not-found-page';
import { RootLayout } from '../components/layout/root-layout';
import { RouteErrorPage } from '../components/layout/route-error-page';
import { Spinner } from '../components/ui/spinner';
import { useSignup } from '../features/auth/api/signup';
import { ProtectedRoute } from '../features/auth/components/protected-route';
import type { LiveScanThemeId } from '../features/live-scan/themes';
import { ComingSoon } from '../features/dashboard/components/coming-soon';
import { paths } from '../lib/paths';
import { PublicLayout } from './public-layout';
import { reportQueryOptions } from '../features/report/api/get-report';
import { publicStatusQueryOptions } from '../features/public/api/get-public-status';
import { overviewQueryOptions } from '../features/dashboard/api/get-overview';
import { scanListQueryOptions } from '../features/scans/api/list-scans';
import { domainDetailQueryOptions } from '../features/dashboard/api/get-domain-detail';
import { currentUserQueryOptions } from '../features/auth/api/get-current-user';
import { subscriptionStatusQueryOptions } from '../api/billing/subscription-status';
import { siteMonitoringQueryOptions } from '../api/domains/site-audits';
import { organisationsQueryOptions } from '../features/team/api/team';
import { beforeFirstScreen, firstScreenMounted, readBeforeFirstScreen } from './first-screen-data';

/**
 * A screen loaded on first visit: each feature is its own chunk, so no screen carries the
 * others' code (the landing page, the usual way in, included).
 */
function screen<M>(load: () => Promise<M>, pick: (module: M) => ComponentType) {
  return async () => ({ Component: pick(await load()) });
}

/** The five live-scan demo pages: one component, five themes. */
const liveScan = (theme: LiveScanThemeId) => async () => {
  const { LiveScan } = await import('../features/live-scan/components/live-scan');
  return {
    Component: function LiveScanScreen() {
      return <LiveScan theme={theme} />;
    },
  };
};

type FirstScreenQueries = Parameters<typeof readBeforeFirstScreen>[1];

/**
 * Starts a screen's main requests while its code is still loading (a route's loader runs beside
 * its `lazy`), instead of after: the screen's queries then find the answers on their way. On a
 * page load the router also waits for them (see `readOnPageLoad`). Failures are the screen's to
 * show, so the loader never throws.
 */
function prefetch(
  queryClient: QueryClient | undefined,
  queries: (params: LoaderFunctionArgs['params']) => FirstScreenQueries,
  options: { behindGate?: boolean } = {},
) {
  return async ({ params }: LoaderFunctionArgs) => {
    if (!queryClient) return null;
    if (beforeFirstScreen()) await readOnPageLoad(queryClient, queries(params), options);
    else void readBeforeFirstScreen(queryClient, queries(params)).catch(() => undefined);
    return null;
  };
}

/**
 * A frame's data (the session gate's account; the dashboard's plan and organisations, behind
 * the gate), read on a page load only: on later screens the frame, already mounted or mounting,
 * asks for itself, and reading ahead would only ask twice for what it reads afresh.
 */
function frameData(
  queryClient: QueryClient | undefined,
  queries: () => FirstScreenQueries,
  options: { behindGate?: boolean } = {},
) {
  return {
    loader: async () => {
      if (queryClient && beforeFirstScreen()) await readOnPageLoad(queryClient, queries(), options);
      return null;
    },
    shouldRevalidate: () => false,
  };
}

/**
 * Reads the first screen's queries before the router renders it (answered from the page where it
 * carries them, see first-screen-data.ts), so it renders once, with its data. Behind the session
 * gate, only once the gate's own read (one request, or the page's answer) says a signed-in
 * account is coming in: a visitor on their way to log in is not sent to read a plan or a domain
 * only to be refused.
 */
async function readOnPageLoad(
  queryClient: QueryClient,
  queries: FirstScreenQueries,
  { behindGate = false }: { behindGate?: boolean },
): Promise<void> {
  if (behindGate) {
    const user = await queryClient.ensureQueryData(currentUserQueryOptions()).catch(() => null);
    if (user == null) return;
  }
  await readBeforeFirstScreen(queryClient, queries).catch(() => undefined);
}

/** Shown while the first screen's code loads (spec §2: the start-up placeholder then fades). */
function BootFallback() {
  return <Spinner label="Loading Conformly" className="min-h-screen" />;
}

/**
 * React Router 7 in data mode: nested layouts (public frame, signed-in frame behind the gate),
 * URL parameters and search params, scroll restoration, lazily loaded screens, and no server
 * rendering to set up.
 */
export function createAppRouter(queryClient?: QueryClient) {
  return createBrowserRouter([
    {
      element: <RootLayout onFirstScreen={firstScreenMounted} />,
      errorElement: <RouteErrorPage />,
      HydrateFallback: BootFallback,
      children: [
        {
          element: <PublicLayout />,
          children: [
            {
              // Its own chunk too (the server names it in the page's head, so the landing page
              // still gets it beside the entry): signed-in screens no longer load it.
              path: paths.home.path,
              lazy: async () => {
                const { LandingPage } = await import('../features/landing/components/landing-page');
                return {
                  Component: function Home() {
                    return <LandingPage useSignup={useSignup} />;
                  },
                };
              },
            },
            {
              path: paths.login.path,
              lazy: screen(
                () => import('../features/auth/components/login-page'),
                (m) => m.LoginPage,
              ),
            },
            {
              path: paths.signup.path,
              lazy: screen(
                () => import('../features/auth/components/signup-page'),
                (m) => m.SignupPage,
              ),
            },
            {
              path: paths.resetPassword.path,
              lazy: screen(
                () => import('../features/auth/components/reset-password-page'),
                (m) => m.ResetPasswordPage,
              ),
            },
            {
              path: paths.resetPasswordWithToken.path,
              lazy: screen(
                () => import('../features/auth/components/set-new-password-page'),
                (m) => m.SetNewPasswordPage,
              ),
            },
            {
              path: paths.report.path,
              loader: prefetch(queryClient, (params) => [reportQueryOptions(params.scanId ?? '')]),
              lazy: screen(
                () => import('../features/report/components/report-page'),
                (m) => m.ReportPage,
              ),
            },
            {
              path: paths.rawReport.path,
              lazy: screen(
                () => import('../features/report/components/raw-report-page'),
                (m) => m.RawReportPage,
              ),
            },
            {
              path: paths.subscribe.path,
              lazy: screen(
                () => import('../features/billing/components/checkout-page'),
                (m) => m.CheckoutPage,
              ),
            },
            {
              path: paths.statusLookup.path,
              lazy: screen(
                () => import('../features/public/components/status-lookup-page'),
                (m) => m.StatusLookupPage,
              ),
            },
            {
              path: paths.status.path,
              loader: prefetch(queryClient, (params) => [
                publicStatusQueryOptions(params.domain ?? ''),
              ]),
              lazy: screen(
                () => import('../features/public/components/status-page'),
                (m) => m.StatusPage,
              ),
            },
            {
              path: paths.audit.path,
              lazy: screen(
                () => import('../features/public/components/domain-audit-page'),
                (m) => m.DomainAuditPage,
              ),
            },
            {
              path: paths.publicAudit.path,
              lazy: screen(
                () => import('../features/public/components/public-scan-page'),
                (m) => m.PublicScanPage,
              ),
            },
            {
              path: paths.rawResults.path,
              lazy: screen(
                () => import('../features/scans/components/raw-results-page'),
                (m) => m.RawResultsPage,
              ),
            },
            { path: paths.liveScan.path, lazy: liveScan('light') },
            { path: paths.realScan.path, lazy: liveScan('real') },
            { path: paths.cinematicScan.path, lazy: liveScan('cinematic') },
            { path: paths.premiumScan.path, lazy: liveScan('terminal') },
            { path: paths.modernScan.path, lazy: liveScan('professional') },
            {
              path: paths.multiPageAudit.path,
              lazy: screen(
                () => import('../features/audits/components/multi-page-audit-page'),
                (m) => m.MultiPageAuditPage,
              ),
            },
            {
              path: paths.smartScan.path,
              lazy: screen(
                () => import('../features/audits/components/smart-scan-page'),
                (m) => m.SmartScanPage,
              ),
            },
            {
              path: paths.smartDiscovery.path,
              lazy: screen(
                () => import('../features/audits/components/smart-discovery-page'),
                (m) => m.SmartDiscoveryPage,
              ),
            },
            {
              // Spec §2 lists it behind the guard, but its buttons lead to sign-up: visitors need it.
              path: paths.pricing.path,
              lazy: screen(
                () => import('../features/billing/components/pricing-page'),
                (m) => m.PricingPage,
              ),
            },
            {
              path: paths.vpat.path,
              lazy: screen(
                () => import('../features/vpat/components/vpat-page'),
                (m) => m.VpatPage,
              ),
            },
            {
              path: paths.about.path,
              lazy: screen(
                () => import('../features/legal/components/about-page'),
                (m) => m.AboutPage,
              ),
            },
            {
              path: paths.privacy.path,
              lazy: screen(
                () => import('../features/legal/components/privacy-page'),
                (m) => m.PrivacyPage,
              ),
            },
            {
              path: paths.terms.path,
              lazy: screen(
                () => import('../features/legal/components/terms-page'),
                (m) => m.TermsPage,
              ),
            },
            {
              path: paths.confirmEmail.path,
              lazy: screen(
                () => import('../features/account/components/confirm-email-page'),
                (m) => m.ConfirmEmailPage,
              ),
            },
            {
              path: paths.unsubscribe.path,
              lazy: screen(
                () => import('../features/account/components/unsubscribe-page'),
                (m) => m.UnsubscribePage,
              ),
            },
            {
              path: paths.invitation.path,
              lazy: screen(
                () => import('../features/team/components/invitation-page'),
                (m) => m.InvitationPage,
              ),
            },
            { path: '*', element: <NotFoundPage /> },
          ],
        },
        {
          element: <ProtectedRoute />,
          ...frameData(queryClient, () => [currentUserQueryOptions()]),
          children: [
            {
              // The signed-in frames load with their first screen, not with the landing page.
              lazy: screen(
                () => import('./app-layout'),
                (m) => m.AppLayout,
              ),
              children: [
                {
                  path: paths.appSubscribe.path,
                  lazy: screen(
                    () => import('../features/billing/components/subscribe-page'),
                    (m) => m.SubscribePage,
                  ),
                },
                {
                  path: paths.badgeConfig.path,
                  lazy: screen(
                    () => import('../features/badge/components/badge-page'),
                    (m) => m.BadgePage,
                  ),
                },
                {
                  path: paths.scan.path,
                  lazy: screen(
                    () => import('../features/scans/components/scan-page'),
                    (m) => m.ScanPage,
                  ),
                },
              ],
            },
            {
              // The dashboard shell (spec §2): sidebar, gate, one child route per section.
              path: paths.dashboard.path,
              ...frameData(
                queryClient,
                () => [subscriptionStatusQueryOptions(), organisationsQueryOptions()],
                { behindGate: true },
              ),
              lazy: screen(
                () => import('./dashboard-frame'),
                (m) => m.DashboardFrame,
              ),
              children: [
                {
                  index: true,
                  // The account's scans too: without the plan they are the page (one round
                  // trip fewer), with it the second tab.
                  loader: prefetch(
                    queryClient,
                    () => [overviewQueryOptions(), scanListQueryOptions()],
                    { behindGate: true },
                  ),
                  lazy: screen(
                    () => import('./overview-screen'),
                    (m) => m.OverviewScreen,
                  ),
                },
                {
                  path: paths.dashboardDomains.path,
                  lazy: screen(
                    () => import('../features/domains/components/domains-page'),
                    (m) => m.DomainsPage,
                  ),
                },
                {
                  path: paths.dashboardSettings.path,
                  lazy: screen(
                    () => import('./settings-screen'),
                    (m) => m.SettingsScreen,
                  ),
                },
                {
                  path: paths.dashboardTeam.path,
                  lazy: screen(
                    () => import('../features/team/components/team-page'),
                    (m) => m.TeamPage,
                  ),
                },
                {
                  path: paths.dashboardApiTokens.path,
                  lazy: screen(
                    () => import('../features/api-tokens/components/api-tokens-page'),
                    (m) => m.ApiTokensPage,
                  ),
                },
                {
                  path: paths.dashboardIntegrations.path,
                  lazy: screen(
                    () => import('../features/integrations/components/integrations-page'),
                    (m) => m.IntegrationsPage,
                  ),
                },
                {
                  path: paths.dashboardAuditLog.path,
                  lazy: screen(
                    () => import('../features/audit-log/components/audit-log-page'),
                    (m) => m.AuditLogPage,
                  ),
                },
                {
                  // Sections that need Compliance Shield.
                  lazy: screen(
                    () => import('../features/dashboard/components/plan-gate'),
                    (m) => m.PlanGate,
                  ),
                  children: [
                    {
                      path: paths.dashboardComplaints.path,
                      lazy: screen(
                        () => import('../features/complaints/components/complaints-page'),
                        (m) => m.ComplaintsPage,
                      ),
                    },
                    {
                      path: paths.dashboardBadge.path,
                      lazy: screen(
                        () => import('../features/badge/components/badge-page'),
                        (m) => m.BadgePage,
                      ),
                    },
                    {
                      path: paths.dashboardAnalytics.path,
                      lazy: screen(
                        () => import('../features/dashboard/components/analytics-page'),
                        (m) => m.AnalyticsPage,
                      ),
                    },
                    {
                      path: paths.dashboardReports.path,
                      lazy: screen(
                        () => import('../features/dashboard/components/reports-page'),
                        (m) => m.ReportsPage,
                      ),
                    },
                    {
                      path: paths.dashboardDomain.path,
                      loader: prefetch(
                        queryClient,
                        (params) => [
                          domainDetailQueryOptions(params.domain ?? ''),
                          siteMonitoringQueryOptions(params.domain ?? ''),
                        ],
                        { behindGate: true },
                      ),
                      lazy: screen(
                        () => import('../features/dashboard/components/domain-page'),
                        (m) => m.DomainPage,
                      ),
                    },
                    {
                      path: paths.dashboardDomainRules.path,
                      lazy: screen(
                        () => import('../features/rule-pages/components/rule-pages-page'),
                        (m) => m.RulePagesPage,
                      ),
                    },
                    {
                      path: paths.dashboardDomainTriage.path,
                      lazy: screen(
                        () => import('../features/triage/components/triage-page'),
                        (m) => m.TriagePage,
                      ),
                    },
                  ],
                },
                { path: '*', element: <ComingSoon title="Dashboard" /> },
              ],
            },
          ],
        },
      ],
    },
  ]);
}
