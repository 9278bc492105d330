import { QueryClientProvider } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useState } from 'react';
import { RouterProvider } from 'react-router';
import { createQueryClient } from './query-client';
import { createAppRouter } from './router';

/**
 * The toaster (Radix Toast) loads beside the first screen rather than in the entry script every
 * page waits for; a toast raised before it arrives waits in the toast store and shows with it.
 */
const Toaster = lazy(async () => ({ default: (await import('../components/ui/toaster')).Toaster }));

export function App() {
  const [queryClient] = useState(createQueryClient);
  const [router] = useState(() => createAppRouter(queryClient));
  useEffect(fadeBootPlaceholder, []);
  return (
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
      <Suspense fallback={null}>
        <Toaster />
      </Suspense>
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
