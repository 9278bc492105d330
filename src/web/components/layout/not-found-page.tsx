import { Link } from 'react-router';
import { paths } from '../../lib/paths';
import { usePageTitle } from '../../lib/page-title';
import { Button } from '../ui/button';

export function NotFoundPage() {
  usePageTitle('Page not found');
  return (
    <section className="mx-auto max-w-xl px-4 py-24 text-center">
      <p className="text-sm font-semibold text-brand-600">404</p>
      <h1 className="mt-2 text-3xl font-bold">Page not found</h1>
      <p className="mt-4 text-slate-700">The requested compliance page could not be located.</p>
      <Button asChild className="mt-8">
        <Link to={paths.home.getHref()}>Back to the home page</Link>
      </Button>
    </section>
  );
}
