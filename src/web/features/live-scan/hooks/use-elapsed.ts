import { useEffect, useState } from 'react';

/**
 * Milliseconds since `key` last changed, ticking while it is set: how long the terminal theme's
 * current stage has been active, for its bar. Measured on this page, so it needs no clock in
 * common with the server.
 */
export function useElapsedSince(key: string | undefined, tickMs = 250): number {
  const [clock, setClock] = useState<{ key: string; elapsed: number }>();
  useEffect(() => {
    if (!key) return;
    const startedAt = performance.now();
    const timer = setInterval(
      () => setClock({ key, elapsed: performance.now() - startedAt }),
      tickMs,
    );
    return () => clearInterval(timer);
  }, [key, tickMs]);
  return clock && clock.key === key ? clock.elapsed : 0;
}
