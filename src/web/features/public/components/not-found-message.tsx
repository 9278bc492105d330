import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { paths } from '../../../lib/paths';
import { Button } from '../../../components/ui/button';

export function NotFoundMessage({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="mx-auto max-w-xl px-4 py-24 text-center">
      <h1 className="text-3xl font-bold">{title}</h1>
      <div className="mt-4 text-slate-700">{children}</div>
      <Button asChild className="mt-8">
        <Link to={paths.home.getHref()}>Start Free Audit</Link>
      </Button>
    </div>
  );
}
