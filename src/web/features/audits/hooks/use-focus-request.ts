import { useCallback, useEffect, useRef } from 'react';

/**
 * Moves focus after the next render, once the element asked for exists (a heading a step just
 * revealed). The request is made together with the state change that reveals the element.
 */
export function useFocusRequest() {
  const pending = useRef<(() => HTMLElement | null) | null>(null);
  useEffect(() => {
    const target = pending.current?.();
    pending.current = null;
    target?.focus();
  });
  return useCallback((target: () => HTMLElement | null) => {
    pending.current = target;
  }, []);
}
