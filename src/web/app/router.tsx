import { createBrowserRouter } from 'react-router';
import { NotFoundPage } from '../components/layout/not-found-page';
import { PublicLayout } from '../components/layout/public-layout';
import { RootLayout } from '../components/layout/root-layout';
import { LoginPage } from '../features/auth/components/login-page';
import { ProtectedRoute } from '../features/auth/components/protected-route';
import { ResetPasswordPage } from '../features/auth/components/reset-password-page';
import { SetNewPasswordPage } from '../features/auth/components/set-new-password-page';
import { SignupPage } from '../features/auth/components/signup-page';
import { LandingPage } from '../features/landing/components/landing-page';
import { DashboardPage } from '../features/scans/components/dashboard-page';
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
