import { usePageTitle } from '../../../lib/page-title';
import { BillingSection } from './billing-section';

/**
 * /app/dashboard/settings. For now its billing section; profile, password, sessions and
 * notifications belong to the dashboard's settings work (issue 13) and join this page.
 */
export function SettingsPage() {
  usePageTitle('Settings');
  return (
    <div className="mx-auto max-w-3xl px-4 py-10">
      <h1 className="text-3xl font-bold">Settings</h1>
      <BillingSection />
    </div>
  );
}
