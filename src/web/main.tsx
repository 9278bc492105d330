import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import './styles.css';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');
const root = createRoot(container);
// The first render as a transition: React renders it in slices of a few milliseconds, yielding to
// the browser between them, instead of in one task (about 280 ms of a throttled phone's CPU for
// the router, the query client and the start-up placeholder). index.html shows its own
// placeholder meanwhile.
startTransition(() => {
  root.render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
});
