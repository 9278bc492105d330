import { ShieldCheck } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link, NavLink } from 'react-router';
import { paths } from '../../lib/paths';
import { cn } from '../../lib/cn';
import { Button } from '../ui/button';
import { HeaderMenu } from './header-menu';
import { primaryTools, publicTools, secondaryToolGroups } from './public-tools';

const toolLinkClass = ({ isActive }: { isActive: boolean }) =>
  cn(
    'rounded-md px-2 py-1.5 font-semibold whitespace-nowrap',
    isActive ? 'bg-brand-50 text-brand-800' : 'text-slate-900 hover:bg-slate-100',
  );

/**
 * The public header: sticky, gaining a bottom border and shadow once the page is scrolled. Wide
 * screens show every public tool as plain links (the main ones beside the logo, the rest in a
 * second row); narrow screens put them, with "Log in", behind a Menu disclosure.
 */
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
      <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-3 px-4">
        <Link
          to={paths.home.getHref()}
          className="flex shrink-0 items-center gap-2 rounded-md text-lg font-bold text-slate-900"
        >
          <ShieldCheck aria-hidden="true" className="h-7 w-7 text-brand-600" />
          Conformly
        </Link>
        <nav aria-label="Tools" className="hidden lg:block">
          <ul className="flex items-center gap-1 text-sm">
            {primaryTools.map((link) => (
              <li key={link.href}>
                <NavLink to={link.href} className={toolLinkClass}>
                  {link.label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <div className="flex items-center gap-2">
          <nav aria-label="Account" className="flex items-center gap-2">
            {signedIn ? (
              <Button asChild className="hidden sm:inline-flex">
                <Link to={paths.dashboard.getHref()}>Dashboard</Link>
              </Button>
            ) : (
              <>
                <Link
                  to={paths.login.getHref()}
                  className="hidden rounded-md px-3 py-2 text-sm font-semibold whitespace-nowrap text-slate-900 hover:bg-slate-100 lg:inline-block"
                >
                  Log in
                </Link>
                <Button asChild className="hidden whitespace-nowrap sm:inline-flex">
                  <Link to={paths.signup.getHref()}>Try it free</Link>
                </Button>
              </>
            )}
          </nav>
          <HeaderMenu className="lg:hidden">
            <nav aria-label="Site">
              <ul className="grid gap-2 border-b border-slate-200 pb-4 sm:hidden">
                {signedIn ? (
                  <li>
                    <Button asChild className="w-full">
                      <Link to={paths.dashboard.getHref()}>Dashboard</Link>
                    </Button>
                  </li>
                ) : (
                  <li>
                    <Button asChild className="w-full">
                      <Link to={paths.signup.getHref()}>Try it free</Link>
                    </Button>
                  </li>
                )}
              </ul>
              {!signedIn && (
                <p className="pt-3">
                  <Link
                    to={paths.login.getHref()}
                    className="inline-block rounded-md py-2 font-semibold text-brand-700 underline"
                  >
                    Log in
                  </Link>
                </p>
              )}
              <div className="grid gap-4 pt-3 sm:grid-cols-2">
                {publicTools.map((group) => (
                  <div key={group.label}>
                    <h2 className="text-xs font-bold tracking-wide text-slate-700 uppercase">
                      {group.label}
                    </h2>
                    <ul className="mt-1 grid">
                      {group.links.map((link) => (
                        <li key={link.href}>
                          <NavLink to={link.href} className={toolLinkClass}>
                            {link.label}
                          </NavLink>
                        </li>
                      ))}
                    </ul>
                  </div>
                ))}
              </div>
            </nav>
          </HeaderMenu>
        </div>
      </div>
      <nav aria-label="More tools" className="hidden border-t border-slate-100 lg:block">
        <div className="mx-auto flex max-w-6xl flex-wrap items-center gap-x-6 gap-y-1 px-4 py-1 text-sm">
          {secondaryToolGroups.map((group) => (
            <div key={group.label} className="flex items-center gap-1">
              <span className="pr-1 text-xs font-bold tracking-wide text-slate-700 uppercase">
                {group.label}
              </span>
              <ul className="flex items-center gap-1">
                {group.links.map((link) => (
                  <li key={link.href}>
                    <NavLink to={link.href} className={toolLinkClass}>
                      {link.label}
                    </NavLink>
                  </li>
                ))}
              </ul>
            </div>
          ))}
        </div>
      </nav>
    </header>
  );
}

function useScrolled(): boolean {
  const [scrolled, setScrolled] = useState(false);
  useEffect(() => {
    const update = () => setScrolled(window.scrollY > 0);
    // Reading the scroll position while the page's first render is still being laid out forces
    // that layout early (about 70 ms on a phone); a page restored mid-way is read a frame later.
    const frame = requestAnimationFrame(update);
    window.addEventListener('scroll', update, { passive: true });
    return () => {
      cancelAnimationFrame(frame);
      window.removeEventListener('scroll', update);
    };
  }, []);
  return scrolled;
}
