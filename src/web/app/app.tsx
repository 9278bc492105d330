import { QueryClientProvider } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useState } from 'react';
import { RouterProvider } from 'react-router';
import { useHasToasted } from '../lib/toast-store';
import { createQueryClient } from './query-client';
import { createAppRouter } from './router';

/**
 * The toaster (Radix Toast and its parts, about 18 KB compressed) loads with the first toast a
 * visitor is shown, not with every page: the toast waits in the toast store and shows with it,
 * announced by Radix's own delayed live region as any toast is.
 */
const Toaster = lazy(async () => ({ default: (await import('../components/ui/toaster')).Toaster }));

export function App() {
  const [queryClient] = useState(createQueryClient);
  const [router] = useState(() => createAppRouter(queryClient));
  // Once a toast has been shown the toaster stays: its region keeps its place for the next.
  const toasted = useHasToasted();
  useEffect(fadeBootPlaceholder, []);
  return (
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
      {toasted && (
        <Suspense fallback={null}>
          <Toaster />
        </Suspense>
      )}
    </QueryClientProvider>
  );
}

/**
 * index.html shows a placeholder until the app renders; React replaced it inside #root, so a
 * white veil over the first screen fades out instead (spec §2: 100 ms delay, 300 ms transition).
 */
function fadeBootPlaceholder(): void {
  const overlay = document.createElement('div');
  overlay.setAttribute('aria-hidden', 'true');
  Object.assign(overlay.style, {
    position: 'fixed',
    inset: '0',
    background: 'white',
    zIndex: '200',
    transition: 'opacity 300ms ease 100ms',
    pointerEvents: 'none',
  });
  // No text in the veil: half-faded text would fail contrast while it fades.
  document.body.append(overlay);
  requestAnimationFrame(() => {
    overlay.style.opacity = '0';
  });
  setTimeout(() => overlay.remove(), 450);
}
