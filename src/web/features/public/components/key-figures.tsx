import { Card } from '../../../components/ui/card';
import { cn } from '../../../lib/cn';

/** The row of figure cards at the top of the public pages (score, issues, dates, standard). */
export function KeyFigures({
  figures,
  className = 'sm:grid-cols-3',
}: {
  figures: readonly (readonly [term: string, value: string | number])[];
  /** Grid columns, as Tailwind classes. */
  className?: string;
}) {
  return (
    <dl className={cn('mt-8 grid gap-4', className)}>
      {figures.map(([term, value]) => (
        <Card key={term} className="p-4">
          <dt className="text-sm text-slate-700">{term}</dt>
          <dd className="mt-1 text-2xl font-bold">{value}</dd>
        </Card>
      ))}
    </dl>
  );
}
