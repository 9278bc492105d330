import type { TrackerExportResult } from '#contract/trackers.js';

/**
 * What a send to GitHub gave: each issue created, then each sent before (its stored link, not a
 * second issue), as links to GitHub. Shown beside the button that sent them, wherever it is.
 */
export function GithubIssueLinks({ result }: { result: TrackerExportResult | undefined }) {
  if (!result) return null;
  const links = [
    ...result.created.map((link) => ({ ...link, said: 'Created' })),
    ...result.alreadySent.map((link) => ({ ...link, said: 'Sent before as' })),
  ];
  if (links.length === 0) return null;
  return (
    <ul className="grid gap-0.5 text-sm">
      {links.map((link) => (
        <li key={link.issueKey}>
          {link.said}{' '}
          <a href={link.url} className="font-semibold text-brand-700 underline">
            GitHub issue #{link.externalId}
          </a>
        </li>
      ))}
    </ul>
  );
}
