import { Link, useNavigate } from 'react-router';
import { paths } from '../../lib/paths';
import { usePageTitle } from '../../lib/page-title';
import { Button } from '../ui/button';

export function NotFoundPage() {
  usePageTitle('Page not found');
  const navigate = useNavigate();
  return (
    <section className="mx-auto max-w-xl px-4 py-24 text-center">
      <p className="text-sm font-semibold text-brand-600">404</p>
      <h1 className="mt-2 text-3xl font-bold">Page not found</h1>
      <p className="mt-4 text-slate-700">The requested compliance page could not be located.</p>
      <div className="mt-8 flex flex-wrap justify-center gap-3">
        <Button asChild>
          <Link to={paths.home.getHref()}>Back to the home page</Link>
        </Button>
        <Button variant="outline" onClick={() => void navigate(-1)}>
          Go back
        </Button>
      </div>
    </section>
  );
}
