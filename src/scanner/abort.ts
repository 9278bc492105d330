/**
 * Waiting with a way out: every wait of a scan (a step, an engine, a cleanup call, a tab reset)
 * can hang on a stuck renderer, so each is bounded by a timeout or an AbortSignal.
 */

/** Settles like `promise`, but rejects with the abort reason as soon as `signal` aborts. */
export function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(abortReason(signal));
  promise.catch(() => undefined);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortReason(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** Settles like `promise`, but rejects with `message` after `ms` milliseconds. */
export function withTimeout<T>(
  promise: Promise<T>,
  ms: number,
  message = `Timed out after ${ms} ms`,
): Promise<T> {
  // The loser keeps running until stopped; its late rejection must not go unhandled.
  promise.catch(() => undefined);
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Waits `ms` milliseconds, or less when `signal` aborts (then rejects with its reason). */
export function delay(ms: number, signal: AbortSignal): Promise<void> {
  return untilAborted(new Promise<void>((resolve) => setTimeout(resolve, ms).unref()), signal);
}

export function throwIfAborted(signal: AbortSignal): void {
  if (signal.aborted) throw abortReason(signal);
}

/** The signal's reason when it is an Error (a timeout, a crash), else a plain AbortError. */
export function abortReason(signal: AbortSignal): Error {
  return signal.reason instanceof Error
    ? signal.reason
    : new DOMException('The scan was aborted.', 'AbortError');
}
