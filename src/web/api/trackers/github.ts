import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TrackerExportResult } from '#contract/trackers.js';
import { api } from '../../lib/api-client';

const base = (domain: string) => `/api/domains/${encodeURIComponent(domain)}`;

/**
 * Creates GitHub issues for the chosen fingerprints (the rules-and-pages screen, the triage
 * screen and a scan's report); the rules view is read again for their links.
 */
export function useCreateGithubIssues(domain: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (issueKeys: string[]) =>
      api.post<TrackerExportResult>(`${base(domain)}/tracker/github`, { issueKeys }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['rule-pages', domain] }),
  });
}

/** The Jira CSV of the chosen fingerprints: a plain link the browser downloads. */
export const jiraCsvHref = (domain: string, issueKeys: string[]) =>
  `${base(domain)}/exports/jira.csv?keys=${encodeURIComponent(issueKeys.join(','))}`;
