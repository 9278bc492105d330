import { ShieldCheck } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { paths } from '../../lib/paths';
import { cn } from '../../lib/cn';
import { Button } from '../ui/button';

/** The public header: sticky, gaining a bottom border and shadow once the page is scrolled. */
export function SiteHeader({ signedIn = false }: { signedIn?: boolean }) {
  const scrolled = useScrolled();
  return (
    <header
      data-scrolled={scrolled}
      className={cn(
        'sticky top-0 z-40 border-b bg-white/95 backdrop-blur transition-shadow',
        scrolled ? 'border-slate-200 shadow-md' : 'border-transparent shadow-none',
      )}
    >
      <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-4 px-4">
        <Link
          to={paths.home.getHref()}
          className="flex items-center gap-2 rounded-md text-lg font-bold text-slate-900"
        >
          <ShieldCheck aria-hidden="true" className="h-7 w-7 text-brand-600" />
          Conformly
        </Link>
        <nav aria-label="Account" className="flex items-center gap-2">
          {signedIn ? (
            <Button asChild>
              <Link to={paths.dashboard.getHref()}>Dashboard</Link>
            </Button>
          ) : (
            <>
              <Link
                to={paths.login.getHref()}
                className="hidden rounded-md px-3 py-2 text-sm font-semibold text-slate-900 hover:bg-slate-100 sm:inline-block"
              >
                Log in
              </Link>
              <Button asChild>
                <Link to={paths.signup.getHref()}>Try it free</Link>
              </Button>
            </>
          )}
        </nav>
      </div>
    </header>
  );
}

function useScrolled(): boolean {
  const [scrolled, setScrolled] = useState(false);
  useEffect(() => {
    const update = () => setScrolled(window.scrollY > 0);
    update();
    window.addEventListener('scroll', update, { passive: true });
    return () => window.removeEventListener('scroll', update);
  }, []);
  return scrolled;
}
