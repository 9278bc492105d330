import { useId, type ReactNode } from 'react';
import type { PageChooserState } from '../hooks/use-page-chooser';
import { CustomPageForm } from './custom-page-form';
import { DiscoveredPageList } from './discovered-page-list';
import { SelectionBar } from './selection-bar';

/**
 * The discovered pages to choose from (spec §2 smart scan and smart discovery): the list's
 * heading, a line about what discovery found, the selection count with select-all and clear, the
 * list, a custom page form and why the selection cannot be scanned; the screen's own actions
 * follow as children.
 */
export function PageChooser({
  chooser,
  homeUrl,
  heading,
  summary,
  disabled = false,
  children,
}: {
  chooser: PageChooserState;
  homeUrl: string;
  heading: string;
  summary: ReactNode;
  disabled?: boolean;
  children: ReactNode;
}) {
  const listHeadingId = useId();
  const { selected, problem, pages, rules, note, listHeadingRef } = chooser;
  return (
    <>
      <h2
        id={listHeadingId}
        ref={listHeadingRef}
        tabIndex={-1}
        className="text-xl font-semibold focus:outline-none"
      >
        {heading}
      </h2>
      <p className="rounded-md bg-brand-50 p-3 text-sm text-brand-800">{summary}</p>
      <SelectionBar
        selected={selected.length}
        disabled={disabled}
        onSelectAll={chooser.selectAll}
      />
      <DiscoveredPageList
        pages={pages}
        rules={rules}
        labelledBy={listHeadingId}
        disabled={disabled}
        onToggle={chooser.toggle}
        onRemove={chooser.remove}
      />
      <CustomPageForm
        pages={pages}
        homeUrl={homeUrl}
        disabled={disabled}
        onChange={chooser.replace}
      />
      <p role="status" className="sr-only">
        {note}
      </p>
      {problem && selected.length > 0 && <p className="text-sm font-medium text-warn">{problem}</p>}
      {children}
    </>
  );
}
