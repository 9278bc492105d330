import { NavLink } from 'react-router';
import { cn } from '../../../lib/cn';
import { paths } from '../../../lib/paths';
import type { LiveScanTheme, LiveScanThemeId } from '../themes';

/** Each look of the live scan and its page (spec §2 keeps all five routes). */
const looks: { id: LiveScanThemeId; label: string; href: string }[] = [
  { id: 'light', label: 'Live scan', href: paths.liveScan.getHref() },
  { id: 'real', label: 'Real scanner', href: paths.realScan.getHref() },
  { id: 'cinematic', label: 'Cinematic', href: paths.cinematicScan.getHref() },
  { id: 'terminal', label: 'Defense Grid', href: paths.premiumScan.getHref() },
  { id: 'professional', label: 'Multi-engine', href: paths.modernScan.getHref() },
];

/**
 * The same scan in its other looks. These demo skins live here, on the live-scan pages, and not in
 * the site header: an owner's status page or dashboard should not offer "Cinematic".
 */
export function ThemeLinks({ theme }: { theme: LiveScanTheme }) {
  return (
    <nav aria-label="Scan demos" className="mt-4">
      <ul className={cn('flex flex-wrap gap-x-4 gap-y-1 text-sm', theme.look.muted)}>
        {looks.map((look) => (
          <li key={look.id}>
            <NavLink
              to={look.href}
              aria-current={look.id === theme.id ? 'page' : undefined}
              className={cn(
                // A solid outline in the link's own colour: visible on every theme's background.
                'inline-block rounded-md py-1 underline underline-offset-2 focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-current',
                theme.look.link,
                look.id === theme.id && 'font-bold no-underline',
              )}
            >
              {look.label}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
