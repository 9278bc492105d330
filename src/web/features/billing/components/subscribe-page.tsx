import { usePageTitle } from '../../../lib/page-title';

export function SubscribePage() {
  usePageTitle('Activate Compliance Shield');
  return (
    <div className="mx-auto max-w-3xl px-4 py-12">
      <h1 className="text-3xl font-bold">Activate Compliance Shield</h1>
    </div>
  );
}
