import { useEffect, useRef, useState } from 'react';
import type { ScanProgress, ScanResults } from '#contract/scan-api.js';
import { trackScanCompleted, trackScanInitiated } from '../../../lib/analytics';
import { ApiError, NetworkError, messageOf } from '../../../lib/api-client';
import { toast } from '../../../lib/toast-store';
import { useAbortScan } from '../../../api/scans/abort-scan';
import { useScanProgress } from '../../../api/scans/get-scan-progress';
import { useScanResults } from '../../../api/scans/get-scan-results';
import { useResetScans } from '../../../api/scans/reset-scans';
import { useStartLiveScan } from '../../../api/scans/start-live-scan';
import { normalizeScanUrl } from '../scan-url';

/**
 * Where the page is: no scan (idle), starting it, following it, or one of its endings. 'failed'
 * means the progress call itself failed, as opposed to the scan ending in its error stage.
 */
export type LiveScanPhase =
  'idle' | 'starting' | 'running' | 'complete' | 'error' | 'aborted' | 'failed';

/** A call that failed: the terminal theme shows 'Scan failed: {status}' (spec §8). */
export interface CallFailure {
  status: string;
  message: string;
}

function failureOf(error: unknown, fallback: string): CallFailure {
  let status = 'unknown error';
  if (error instanceof ApiError) status = String(error.status);
  else if (error instanceof NetworkError) status = 'network error';
  return { status, message: messageOf(error, fallback) };
}

function phaseOf(state: {
  starting: boolean;
  scanId: string | undefined;
  /** null: the server has no such scan; undefined: not read yet. */
  progress: ScanProgress | null | undefined;
  callFailed: boolean;
}): LiveScanPhase {
  if (state.starting) return 'starting';
  if (!state.scanId || state.progress === null) return 'idle';
  if (state.callFailed) return 'failed';
  switch (state.progress?.stage) {
    case 'complete':
    case 'error':
    case 'aborted':
      return state.progress.stage;
    default:
      return 'running';
  }
}

export interface LiveScan {
  phase: LiveScanPhase;
  scanId: string | undefined;
  progress: ScanProgress | undefined;
  results: ScanResults | undefined;
  resultsError: string | undefined;
  /** The start call failed (spec §8 'Failed to start real accessibility scan'). */
  startFailure: CallFailure | undefined;
  /** The progress call failed (spec §8 'Failed to get scan progress'). */
  progressFailure: CallFailure | undefined;
  /** The server answered 404: the scan is gone (another tab reset it), nothing is running. */
  noScanRunning: boolean;
  /** Spec §2: abort only while polling runs and the server says the scan can stop. */
  canAbort: boolean;
  start(text: string): Promise<void>;
  retry(): Promise<void>;
  abort(): void;
  reset(): Promise<void>;
}

/** The one behaviour behind the five live-scan themes (spec §2, §4, §7, §8). */
export function useLiveScan(): LiveScan {
  const [scanId, setScanId] = useState<string>();
  const [lastUrl, setLastUrl] = useState<string>();
  const [startFailure, setStartFailure] = useState<CallFailure>();
  const startCall = useStartLiveScan();
  const abortCall = useAbortScan();
  const resetCall = useResetScans();
  const progressQuery = useScanProgress(scanId);
  const progress = progressQuery.data ?? undefined;
  const resultsQuery = useScanResults(scanId, progress?.stage === 'complete');

  const phase = phaseOf({
    starting: startCall.isPending,
    scanId,
    progress: progressQuery.data,
    callFailed: progressQuery.isError,
  });

  const progressError = progressQuery.isError ? progressQuery.error : undefined;
  useEffect(() => {
    if (!progressError) return;
    toast({
      title: 'Failed to get scan progress',
      description: messageOf(progressError, 'Something went wrong during the scan.'),
      variant: 'destructive',
    });
  }, [progressError]);

  const trackedScan = useRef<string>(undefined);
  const results = resultsQuery.data;
  useEffect(() => {
    if (!scanId || !results || !progress || trackedScan.current === scanId) return;
    trackedScan.current = scanId;
    trackScanCompleted(progress.url, results.failedTests, results.score);
  }, [scanId, results, progress]);

  const start = async (text: string) => {
    const url = normalizeScanUrl(text);
    if (!url || startCall.isPending) return;
    setStartFailure(undefined);
    setScanId(undefined);
    setLastUrl(url);
    try {
      const answer = await startCall.mutateAsync(url);
      trackScanInitiated(url);
      setScanId(answer.scanId);
    } catch (error) {
      setScanId(undefined);
      setStartFailure(failureOf(error, 'Failed to start real accessibility scan'));
      toast({
        title: 'Failed to start real accessibility scan',
        description: messageOf(error, 'Scan failed. Please try again.'),
        variant: 'destructive',
      });
    }
  };

  return {
    phase,
    scanId,
    progress,
    results,
    resultsError: resultsQuery.isError
      ? messageOf(resultsQuery.error, 'The results could not be loaded.')
      : undefined,
    startFailure,
    progressFailure: progressError
      ? failureOf(progressError, 'Something went wrong during the scan.')
      : undefined,
    noScanRunning: !!scanId && progressQuery.data === null,
    canAbort: phase === 'running' && !!progress?.canAbort && !abortCall.isPending,
    start,
    retry: () => start(progress?.url ?? lastUrl ?? ''),
    abort() {
      if (!scanId) return;
      abortCall.mutate(scanId, {
        onError: (error) =>
          toast({
            title: 'The scan could not be stopped',
            description: messageOf(error, 'Please try again.'),
            variant: 'destructive',
          }),
      });
    },
    async reset() {
      // The page returns to no scan whatever the server answers; a failed call only says so.
      setScanId(undefined);
      setStartFailure(undefined);
      setLastUrl(undefined);
      try {
        await resetCall.mutateAsync();
      } catch (error) {
        toast({
          title: 'Running scans could not be stopped',
          description: messageOf(error, 'Please try again.'),
          variant: 'destructive',
        });
      }
    },
  };
}
