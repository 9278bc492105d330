import { Link } from 'react-router';
import { AccountSettingsSections } from '../features/account/components/account-settings';
import { BillingAccountSections } from '../features/billing/components/billing-account';
import { BillingSection } from '../features/billing/components/billing-section';
import { usePageTitle } from '../lib/page-title';
import { paths } from '../lib/paths';

/**
 * /app/dashboard/settings: the account's sections (profile, e-mail, password, sessions,
 * notifications, its data) and billing, composed here since features stay apart.
 */
export function SettingsScreen() {
  usePageTitle('Settings');
  return (
    <div className="mx-auto max-w-3xl px-4 py-10">
      <h1 className="text-3xl font-bold">Settings</h1>
      <nav aria-label="Organisation settings" className="mt-4">
        <ul className="flex flex-wrap gap-4">
          <li>
            <Link to={paths.dashboardTeam.getHref()} className="text-brand-700 underline">
              Team
            </Link>
          </li>
          <li>
            <Link to={paths.dashboardAuditLog.getHref()} className="text-brand-700 underline">
              Audit log
            </Link>
          </li>
          <li>
            <Link to={paths.dashboardApiTokens.getHref()} className="text-brand-700 underline">
              API tokens
            </Link>
          </li>
          <li>
            <Link to={paths.dashboardIntegrations.getHref()} className="text-brand-700 underline">
              Integrations
            </Link>
          </li>
        </ul>
      </nav>
      <AccountSettingsSections />
      <BillingSection />
      <BillingAccountSections />
    </div>
  );
}
