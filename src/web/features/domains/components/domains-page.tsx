import { usePageTitle } from '../../../lib/page-title';

export function DomainsPage() {
  usePageTitle('Domains');
  return (
    <div className="mx-auto max-w-3xl px-4 py-12">
      <h1 className="text-3xl font-bold">Domains</h1>
    </div>
  );
}
