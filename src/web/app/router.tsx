import { createBrowserRouter } from 'react-router';
import { NotFoundPage } from '../components/layout/not-found-page';
import { PublicLayout } from './public-layout';
import { RootLayout } from '../components/layout/root-layout';
import { LoginPage } from '../features/auth/components/login-page';
import { ProtectedRoute } from '../features/auth/components/protected-route';
import { ResetPasswordPage } from '../features/auth/components/reset-password-page';
import { SetNewPasswordPage } from '../features/auth/components/set-new-password-page';
import { SignupPage } from '../features/auth/components/signup-page';
import { ReportPage } from '../features/report/components/report-page';
import { CheckoutPage } from '../features/billing/components/checkout-page';
import { RawReportPage } from '../features/report/components/raw-report-page';
import { AboutPage } from '../features/legal/components/about-page';
import { PrivacyPage } from '../features/legal/components/privacy-page';
import { TermsPage } from '../features/legal/components/terms-page';
import { DomainAuditPage } from '../features/public/components/domain-audit-page';
import { PublicScanPage } from '../features/public/components/public-scan-page';
import { StatusPage } from '../features/public/components/status-page';
import { VpatPage } from '../features/vpat/components/vpat-page';
import { MultiPageAuditPage } from '../features/audits/components/multi-page-audit-page';
import { SmartDiscoveryPage } from '../features/audits/components/smart-discovery-page';
import { SmartScanPage } from '../features/audits/components/smart-scan-page';
import { LandingPage } from '../features/landing/components/landing-page';
import { DashboardPage } from '../features/scans/components/dashboard-page';
import { RawResultsPage } from '../features/scans/components/raw-results-page';
import { LiveScan } from '../features/live-scan/components/live-scan';
import { ScanPage } from '../features/scans/components/scan-page';
import { AppLayout } from './app-layout';
import { paths } from './paths';

/**
 * React Router 7 in data mode: nested layouts (public frame, signed-in frame behind the gate),
 * URL parameters and search params, scroll restoration, and no server rendering to set up.
 */
export function createAppRouter() {
  return createBrowserRouter([
    {
      element: <RootLayout />,
      children: [
        {
          element: <PublicLayout />,
          children: [
            { path: paths.home.path, element: <LandingPage /> },
            { path: paths.login.path, element: <LoginPage /> },
            { path: paths.signup.path, element: <SignupPage /> },
            { path: paths.resetPassword.path, element: <ResetPasswordPage /> },
            { path: paths.resetPasswordWithToken.path, element: <SetNewPasswordPage /> },
            { path: paths.report.path, element: <ReportPage /> },
            { path: paths.subscribe.path, element: <CheckoutPage /> },
            { path: paths.rawReport.path, element: <RawReportPage /> },
            { path: paths.status.path, element: <StatusPage /> },
            { path: paths.audit.path, element: <DomainAuditPage /> },
            { path: paths.publicAudit.path, element: <PublicScanPage /> },
            { path: paths.rawResults.path, element: <RawResultsPage /> },
            { path: paths.liveScan.path, element: <LiveScan theme="light" /> },
            { path: paths.realScan.path, element: <LiveScan theme="real" /> },
            { path: paths.cinematicScan.path, element: <LiveScan theme="cinematic" /> },
            { path: paths.premiumScan.path, element: <LiveScan theme="terminal" /> },
            { path: paths.modernScan.path, element: <LiveScan theme="professional" /> },
            { path: paths.multiPageAudit.path, element: <MultiPageAuditPage /> },
            { path: paths.smartScan.path, element: <SmartScanPage /> },
            { path: paths.smartDiscovery.path, element: <SmartDiscoveryPage /> },
            { path: paths.vpat.path, element: <VpatPage /> },
            { path: paths.about.path, element: <AboutPage /> },
            { path: paths.privacy.path, element: <PrivacyPage /> },
            { path: paths.terms.path, element: <TermsPage /> },
            { path: '*', element: <NotFoundPage /> },
          ],
        },
        {
          element: <ProtectedRoute />,
          children: [
            {
              element: <AppLayout />,
              children: [
                { path: paths.dashboard.path, element: <DashboardPage /> },
                { path: paths.scan.path, element: <ScanPage /> },
              ],
            },
          ],
        },
      ],
    },
  ]);
}
