import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { messageOf } from '../../../lib/api-client';
import { auditProgressKey, useAuditProgress } from '../api/get-audit-progress';
import { useAudit, type AuditKind } from '../api/run-multi-page-audit';
import { pageRuns } from '../page-runs';

const isAbort = (error: unknown) => error instanceof DOMException && error.name === 'AbortError';

/**
 * One multi-page audit from the screen's side: the call that answers when every page has ended,
 * the server's page-by-page progress read meanwhile, and the pages' states from both. A failed
 * call marks every page as an error with `failureMessage` (spec §4, §8).
 */
export function useAuditRun(kind: AuditKind, failureMessage: string) {
  const queryClient = useQueryClient();
  const audit = useAudit(kind);
  const [urls, setUrls] = useState<string[]>([]);
  const controller = useRef<AbortController | null>(null);
  const progress = useAuditProgress(audit.isPending);

  useEffect(() => () => controller.current?.abort(), []);

  const start = useCallback(
    (next: string[]) => {
      controller.current?.abort();
      controller.current = new AbortController();
      // Progress read for an earlier audit says nothing about this one.
      queryClient.removeQueries({ queryKey: auditProgressKey });
      setUrls(next);
      audit.mutate({ urls: next, signal: controller.current.signal });
    },
    [audit, queryClient],
  );

  const reset = useCallback(() => {
    controller.current?.abort();
    controller.current = null;
    audit.reset();
    setUrls([]);
  }, [audit]);

  const failed = audit.isError && !isAbort(audit.error);
  const reason = failed ? messageOf(audit.error, '') : '';
  const failure = failed ? (reason ? `${failureMessage}: ${reason}` : failureMessage) : undefined;
  const runs = pageRuns(urls, {
    progress: progress.data,
    results: audit.data?.results,
    failure,
  });

  return {
    start,
    reset,
    urls,
    runs,
    data: audit.data,
    isPending: audit.isPending,
    failure,
  };
}
