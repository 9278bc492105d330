import { isRouteErrorResponse, Link, useNavigate, useRouteError } from 'react-router';
import { paths } from '../../lib/paths';
import { usePageTitle } from '../../lib/page-title';
import { Button } from '../ui/button';
import { NotFoundPage } from './not-found-page';
import { SiteFooter } from './site-footer';
import { SiteHeader } from './site-header';
import { SkipLink } from './skip-link';

/**
 * What a screen that failed to load or render shows instead of React Router's bare error text:
 * the site's frame, a plain sentence and the ways on (try again, back, home). A screen's code
 * missing after a new release is the usual cause, and loading the page again fixes it.
 */
export function RouteErrorPage() {
  const error = useRouteError();
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  return (
    <div className="flex min-h-screen flex-col">
      <SkipLink />
      <SiteHeader />
      <main id="main-content" tabIndex={-1} className="flex-1 focus:outline-none">
        {notFound ? <NotFoundPage /> : <SomethingWentWrong />}
      </main>
      <SiteFooter />
    </div>
  );
}

function SomethingWentWrong() {
  usePageTitle('Something went wrong');
  const navigate = useNavigate();
  return (
    <section className="mx-auto max-w-xl px-4 py-24 text-center">
      <h1 className="text-3xl font-bold">Something went wrong</h1>
      <p className="mt-4 text-slate-700">
        This page could not be shown. Loading it again usually helps; nothing you saved is lost.
      </p>
      <div className="mt-8 flex flex-wrap justify-center gap-3">
        <Button onClick={() => window.location.reload()}>Load the page again</Button>
        <Button variant="outline" onClick={() => void navigate(-1)}>
          Go back
        </Button>
        <Button asChild variant="outline">
          <Link to={paths.home.getHref()}>Home page</Link>
        </Button>
      </div>
    </section>
  );
}
