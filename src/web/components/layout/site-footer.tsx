import { Link } from 'react-router';
import { paths } from '../../lib/paths';

export function SiteFooter() {
  return (
    <footer className="mt-16 border-t border-slate-200 bg-slate-50">
      <div className="mx-auto flex max-w-6xl flex-col gap-4 px-4 py-8 text-sm text-slate-700 sm:flex-row sm:items-center sm:justify-between">
        <p>© {new Date().getFullYear()} Conformly. Not legal advice or certification.</p>
        <nav aria-label="Legal">
          <ul className="flex gap-4">
            <li>
              <Link className="underline hover:text-slate-900" to={paths.about.getHref()}>
                About
              </Link>
            </li>
            <li>
              <Link className="underline hover:text-slate-900" to={paths.privacy.getHref()}>
                Privacy Policy
              </Link>
            </li>
            <li>
              <Link className="underline hover:text-slate-900" to={paths.terms.getHref()}>
                Terms of Service
              </Link>
            </li>
          </ul>
        </nav>
      </div>
    </footer>
  );
}
