import { lazy, type ComponentType } from 'react';

/**
 * A part of a screen whose code is not needed to show the screen (a dialog, a drawer, a form in
 * a closed disclosure): a lazy component, and `intent` handlers that start fetching its code as a
 * pointer, a finger or focus nears the control that opens it, so it is there by the time the
 * control is pressed. The import is fetched once however often it is asked for; a failed fetch
 * is left to the lazy component (its Suspense boundary and the route's error screen).
 */
export function loadOnIntent<Props extends object>(
  load: () => Promise<ComponentType<Props>>,
): {
  Component: ComponentType<Props>;
  intent: { onPointerEnter: () => void; onFocus: () => void; onTouchStart: () => void };
} {
  const preload = () => void load().catch(() => undefined);
  return {
    Component: lazy(async () => ({ default: await load() })),
    intent: { onPointerEnter: preload, onFocus: preload, onTouchStart: preload },
  };
}
