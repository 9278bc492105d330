import { useCallback, useEffect, useRef, useState } from 'react';
import type { RawScanResult } from '#contract/raw-result.js';
import { messageOf } from '../../../lib/api-client';
import { scanRawPage } from '../api/scan-raw-page';
import type { PageBadgeStatus } from '../components/badges';

export interface SequencePage {
  url: string;
  status: PageBadgeStatus;
  result: RawScanResult | null;
  error: string | null;
}

const isAbort = (error: unknown) => error instanceof DOMException && error.name === 'AbortError';

/**
 * Smart discovery's scan (spec §2, §7): one raw scan per selected page, one after the other. A
 * page that fails keeps its error and the next one starts; stopping lets the current page finish
 * and leaves the rest unscanned.
 */
export function usePageSequence() {
  const [pages, setPages] = useState<SequencePage[]>([]);
  const [running, setRunning] = useState(false);
  const [stopping, setStopping] = useState(false);
  const stopRequested = useRef(false);
  const controller = useRef<AbortController | null>(null);

  useEffect(() => () => controller.current?.abort(), []);

  const start = useCallback(async (urls: string[]) => {
    const update = (index: number, patch: Partial<SequencePage>) =>
      setPages((list) => list.map((page, i) => (i === index ? { ...page, ...patch } : page)));
    controller.current?.abort();
    const own = new AbortController();
    controller.current = own;
    stopRequested.current = false;
    setStopping(false);
    setRunning(true);
    setPages(urls.map((url) => ({ url, status: 'pending', result: null, error: null })));
    for (const [index, url] of urls.entries()) {
      if (own.signal.aborted) return;
      if (stopRequested.current) {
        setPages((list) =>
          list.map((page, i) => (i >= index ? { ...page, status: 'stopped' } : page)),
        );
        break;
      }
      update(index, { status: 'scanning' });
      try {
        const result = await scanRawPage(url, own.signal);
        update(index, { status: 'complete', result });
      } catch (error) {
        if (isAbort(error)) return;
        update(index, {
          status: 'error',
          error: messageOf(error, 'The page could not be scanned.'),
        });
      }
    }
    setRunning(false);
    setStopping(false);
  }, []);

  const stop = useCallback(() => {
    stopRequested.current = true;
    setStopping(true);
  }, []);

  const reset = useCallback(() => {
    controller.current?.abort();
    controller.current = null;
    setPages([]);
    setRunning(false);
    setStopping(false);
  }, []);

  return { pages, running, stopping, start, stop, reset };
}
