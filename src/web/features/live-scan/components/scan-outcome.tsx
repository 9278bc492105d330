import { AlertTriangle, RefreshCw } from 'lucide-react';
import type { ScanProgress } from '#contract/scan-api.js';
import { Button } from '../../../components/ui/button';
import { cn } from '../../../lib/cn';
import { engineNames } from '../../../lib/scan-stages';
import type { CallFailure, LiveScan } from '../hooks/use-live-scan';
import type { LiveScanTheme } from '../themes';

/** The terminal theme's box for a failed call (spec §8: 'Scan Error', 'Scan failed: {status}'). */
export function TerminalErrorBox({
  failure,
  theme,
  onRetry,
}: {
  failure: CallFailure;
  theme: LiveScanTheme;
  onRetry?: (() => void) | undefined;
}) {
  const { look } = theme;
  return (
    <div role="alert" className={cn('mt-6 p-5', look.dangerBox)}>
      <h2 className={cn('text-lg font-bold', look.dangerTitle)}>Scan Error</h2>
      <p className="mt-2 font-semibold">Scan failed: {failure.status}</p>
      <p className="mt-1 text-sm break-words">{failure.message}</p>
      {onRetry && <RetryButton theme={theme} onRetry={onRetry} />}
    </div>
  );
}

/** The progress call failed (spec §8 failed screen). */
export function ProgressFailure({
  failure,
  theme,
  onRetry,
}: {
  failure: CallFailure;
  theme: LiveScanTheme;
  onRetry: () => void;
}) {
  if (theme.terminalStages)
    return <TerminalErrorBox failure={failure} theme={theme} onRetry={onRetry} />;
  const { look } = theme;
  return (
    <div role="alert" className={cn('mt-6 p-5', look.dangerBox)}>
      <h2 className={cn('flex items-center gap-2 text-lg font-bold', look.dangerTitle)}>
        <AlertTriangle aria-hidden="true" className="h-5 w-5" />
        Scan failed. Please try again.
      </h2>
      <p className="mt-2">Something went wrong during the scan.</p>
      <p className="mt-1 text-sm break-words">{failure.message}</p>
      <RetryButton theme={theme} onRetry={onRetry} />
    </div>
  );
}

/** The scan ended in its error stage (spec §2: 'Scan Failed', details, engine errors, retry). */
export function ScanFailed({
  progress,
  theme,
  onRetry,
}: {
  progress: ScanProgress;
  theme: LiveScanTheme;
  onRetry: () => void;
}) {
  const { look } = theme;
  const engineErrors = Object.entries(progress.engineErrors);
  return (
    <div role="alert" className={cn('mt-6 p-5', look.dangerBox)}>
      <h2 className={cn('flex items-center gap-2 text-lg font-bold', look.dangerTitle)}>
        <AlertTriangle aria-hidden="true" className="h-5 w-5" />
        Scan Failed
      </h2>
      <p className="mt-2 break-words">
        {progress.error ?? 'Something went wrong during the scan.'}
      </p>
      {engineErrors.length > 0 && (
        <>
          <h3 className="mt-3 text-sm font-semibold">Engine errors</h3>
          <ul className="mt-1 grid gap-1 text-sm">
            {engineErrors.map(([engine, message]) => (
              <li key={engine} className="break-words">
                {engineNames[engine] ?? engine}: {message}
              </li>
            ))}
          </ul>
        </>
      )}
      <RetryButton theme={theme} onRetry={onRetry} />
    </div>
  );
}

/** Spec §2: the stopped scan's text. */
export function ScanAborted({ scan, theme }: { scan: LiveScan; theme: LiveScanTheme }) {
  const { look } = theme;
  return (
    <div role="status" className={cn('mt-6', look.panel)}>
      <h2 className={cn('text-lg font-bold', look.panelTitle)}>Scan stopped</h2>
      <p className={cn('mt-2', look.muted)}>The accessibility scan was stopped by user request.</p>
      <div className="mt-4 flex flex-wrap gap-2">
        <Button
          type="button"
          className={cn(look.primary, look.focus)}
          onClick={() => void scan.retry()}
        >
          <RefreshCw aria-hidden="true" className="h-4 w-4" />
          Scan again
        </Button>
      </div>
    </div>
  );
}

function RetryButton({ theme, onRetry }: { theme: LiveScanTheme; onRetry: () => void }) {
  return (
    <Button
      type="button"
      className={cn('mt-4', theme.look.primary, theme.look.focus)}
      onClick={onRetry}
    >
      <RefreshCw aria-hidden="true" className="h-4 w-4" />
      Retry Scan
    </Button>
  );
}
