import { usePageTitle } from '../../../lib/page-title';

export function PricingPage() {
  usePageTitle('Pricing');
  return (
    <div className="mx-auto max-w-3xl px-4 py-12">
      <h1 className="text-3xl font-bold">Pricing</h1>
    </div>
  );
}
