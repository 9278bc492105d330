import type { ReactNode } from 'react';
import { usePageTitle } from '../../../lib/page-title';

/** The frame of the static pages: one title, readable line length, an updated date. */
export function LegalPage({
  title,
  updated,
  children,
}: {
  title: string;
  updated?: string;
  children: ReactNode;
}) {
  usePageTitle(title);
  return (
    <article className="mx-auto max-w-3xl px-4 py-12 [&_h2]:mt-8 [&_h2]:text-xl [&_h2]:font-bold [&_li]:mt-1 [&_p]:mt-3 [&_p]:text-slate-800 [&_ul]:mt-3 [&_ul]:list-disc [&_ul]:pl-6">
      <h1 className="text-3xl font-bold">{title}</h1>
      {updated && <p className="text-sm text-slate-700">Last updated: {updated}</p>}
      {children}
    </article>
  );
}

/** Where people write to us. */
export const supportEmail = 'support@conformly.app';
