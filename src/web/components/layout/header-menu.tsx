import { Menu, X } from 'lucide-react';
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { useLocation } from 'react-router';
import { cn } from '../../lib/cn';

/**
 * The narrow screens' menu: a disclosure (a button with aria-expanded that shows or hides the
 * links below the header), not an ARIA menu, since its items are plain links. Escape closes it
 * and puts focus back on the button; following a link closes it.
 */
export function HeaderMenu({
  label = 'Menu',
  className,
  children,
}: {
  label?: string;
  /** Where the button shows (e.g. `lg:hidden`: wide screens show the links themselves). */
  className?: string;
  children: ReactNode;
}) {
  const location = useLocation();
  const here = `${location.pathname}${location.search}`;
  // Open on the page it was opened on: going to another page closes it.
  const [openAt, setOpenAt] = useState<string>();
  const open = openAt === here;
  const setOpen = (value: boolean) => setOpenAt(value ? here : undefined);
  const panelId = useId();
  const button = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setOpenAt(undefined);
      button.current?.focus();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [open]);

  return (
    <div className={className}>
      <button
        ref={button}
        type="button"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen(!open)}
        className="inline-flex h-10 items-center gap-2 rounded-md border border-slate-400 px-3 text-sm font-semibold text-slate-900 hover:bg-slate-100"
      >
        {open ? (
          <X aria-hidden="true" className="h-5 w-5" />
        ) : (
          <Menu aria-hidden="true" className="h-5 w-5" />
        )}
        {label}
      </button>
      <div
        id={panelId}
        hidden={!open}
        className={cn(
          'absolute inset-x-0 top-full max-h-[calc(100vh-4rem)] overflow-y-auto border-b border-slate-200 bg-white shadow-lg',
        )}
      >
        <div className="mx-auto max-w-6xl px-4 py-4">{children}</div>
      </div>
    </div>
  );
}
