import { Trash2 } from 'lucide-react';
import { useId } from 'react';
import { Button } from '../../../components/ui/button';
import type { CandidatePage, SelectionRules } from '../page-selection';
import { LocationBadge, Pill } from './badges';

/**
 * The discovered pages with a checkbox each (named by the page's address), its text and link
 * text, score in points, reasons and location; at most about 384 px high, scrolling inside
 * (spec §9). Smart discovery keeps the homepage checked and offers remove buttons.
 */
export function DiscoveredPageList({
  pages,
  rules,
  labelledBy,
  onToggle,
  onRemove,
  disabled = false,
}: {
  pages: readonly CandidatePage[];
  rules: SelectionRules;
  labelledBy: string;
  onToggle: (url: string) => void;
  onRemove?: (url: string) => void;
  disabled?: boolean;
}) {
  const id = useId();
  return (
    // Scrolls by itself, so it is a named region reachable by keyboard.
    <div
      role="region"
      aria-labelledby={labelledBy}
      tabIndex={0}
      className="max-h-96 overflow-y-auto rounded-lg border border-slate-200"
    >
      <ul className="divide-y divide-slate-200">
        {pages.map((page, index) => {
          const locked = rules.lockHomepage && index === 0;
          const checkboxId = `${id}-${index}`;
          return (
            <li key={page.url} className="flex gap-3 p-3">
              <input
                id={checkboxId}
                type="checkbox"
                className="mt-1 h-4 w-4 shrink-0 accent-brand-600"
                checked={page.selected}
                disabled={locked || disabled}
                aria-describedby={`${checkboxId}-details`}
                onChange={() => onToggle(page.url)}
              />
              <div className="grid min-w-0 flex-1 gap-1">
                <label htmlFor={checkboxId} className="font-mono text-sm break-all">
                  <span className="sr-only">Select </span>
                  {page.url}
                </label>
                <div id={`${checkboxId}-details`} className="flex flex-wrap items-center gap-1.5">
                  <span className="text-sm font-medium">{page.text}</span>
                  {locked && <Pill tone="info">Homepage: always scanned</Pill>}
                  <LocationBadge location={page.location} />
                  {page.score !== null && <Pill tone="neutral">{page.score} points</Pill>}
                  {page.reasons.map((reason) => (
                    <Pill key={reason} tone="neutral">
                      {reason}
                    </Pill>
                  ))}
                  {page.linkText && page.linkText !== page.text && (
                    <span className="text-sm text-slate-700">Link text: {page.linkText}</span>
                  )}
                </div>
              </div>
              {onRemove && !locked && (
                <Button
                  type="button"
                  variant="ghost"
                  size="icon"
                  disabled={disabled}
                  onClick={() => onRemove(page.url)}
                >
                  <Trash2 aria-hidden="true" className="h-4 w-4" />
                  <span className="sr-only">Remove {page.url}</span>
                </Button>
              )}
            </li>
          );
        })}
      </ul>
    </div>
  );
}
