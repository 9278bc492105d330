import type { ReactNode } from 'react';
import { Card } from '../../../components/ui/card';

export function AuthCard({
  title,
  description,
  children,
}: {
  title: string;
  description?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className="mx-auto w-full max-w-md px-4 py-12">
      <Card>
        <h1 className="text-2xl font-bold">{title}</h1>
        {description && <p className="mt-2 text-slate-700">{description}</p>}
        <div className="mt-6">{children}</div>
      </Card>
    </div>
  );
}
