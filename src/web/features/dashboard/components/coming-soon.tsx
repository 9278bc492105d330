import { Construction } from 'lucide-react';
import { usePageTitle } from '../../../lib/page-title';

/** Spec §2: a dashboard section that is not built yet. */
export function ComingSoon({ title }: { title: string }) {
  usePageTitle(title);
  return (
    <div className="mx-auto max-w-3xl px-4 py-12">
      <h1 className="text-3xl font-bold">{title}</h1>
      <p className="mt-6 flex items-center gap-3 rounded-lg border border-slate-200 bg-white p-6 text-slate-700">
        <Construction aria-hidden="true" className="h-6 w-6 shrink-0 text-brand-600" />
        This section is coming soon
      </p>
    </div>
  );
}
