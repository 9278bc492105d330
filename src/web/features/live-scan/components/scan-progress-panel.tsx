import { OctagonX, RotateCcw } from 'lucide-react';
import type { ScanProgress } from '#contract/scan-api.js';
import { Button } from '../../../components/ui/button';
import { cn } from '../../../lib/cn';
import { engineNames, stageLabels } from '../../../lib/scan-stages';
import type { LiveScan } from '../hooks/use-live-scan';
import type { LiveScanTheme } from '../themes';
import { ScanProgressBar } from './scan-progress-bar';
import { TerminalStageList } from './terminal-stage-list';

/** Spec §9: the log view shows the last 20 lines. */
export const logLines = 20;

/**
 * Where the scan is: stage, current tool, percentage, Abort and Reset, the four stages on the
 * terminal theme, and the log. The log is the polite live region, so each step is announced once
 * as it is written; the percentage and bars stay quiet.
 */
export function ScanProgressPanel({
  scan,
  progress,
  theme,
  onReset,
}: {
  scan: LiveScan;
  progress: ScanProgress | undefined;
  theme: LiveScanTheme;
  onReset: () => void;
}) {
  const { look } = theme;
  const running = scan.phase === 'running';
  const tool = progress?.currentTool;
  const status = progress
    ? `${stageLabels[progress.stage]}${running && tool ? `: ${engineNames[tool] ?? tool}` : ''}`
    : 'Starting the scan…';
  const engineErrors = Object.entries(progress?.engineErrors ?? {});
  return (
    <section aria-labelledby="live-scan-progress" className={cn('mt-6 grid gap-4', look.panel)}>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="live-scan-progress" className={cn('text-xl font-bold', look.panelTitle)}>
          Scan progress
        </h2>
        <div className="flex flex-wrap gap-2">
          {scan.canAbort && (
            <Button
              type="button"
              size="sm"
              className={cn(look.secondary, look.focus)}
              onClick={scan.abort}
            >
              <OctagonX aria-hidden="true" className="h-4 w-4" />
              Abort
            </Button>
          )}
          <Button
            type="button"
            size="sm"
            className={cn(look.secondary, look.focus)}
            onClick={onReset}
          >
            <RotateCcw aria-hidden="true" className="h-4 w-4" />
            Reset
          </Button>
        </div>
      </div>
      {progress && (
        <p className={cn('text-sm break-all', look.muted)}>
          Scanning <span className="font-semibold">{progress.currentPage ?? progress.url}</span>
        </p>
      )}
      <div className="flex flex-wrap items-center justify-between gap-2 text-sm">
        <p className="font-semibold">{status}</p>
        <p className={look.muted}>{progress?.overallProgress ?? 0}%</p>
      </div>
      <ScanProgressBar
        value={progress?.overallProgress ?? 0}
        label="Scan progress"
        track={look.track}
        bar={look.bar}
      />
      {theme.terminalStages && progress && <TerminalStageList progress={progress} look={look} />}
      {engineErrors.length > 0 && !theme.terminalStages && (
        <ul aria-label="Engine errors" className={cn('grid gap-1 text-sm', look.dangerTitle)}>
          {engineErrors.map(([engine, message]) => (
            <li key={engine}>
              {engineNames[engine] ?? engine}: {message}
            </li>
          ))}
        </ul>
      )}
      <ScanLog logs={progress?.logs ?? []} theme={theme} />
    </section>
  );
}

function ScanLog({ logs, theme }: { logs: ScanProgress['logs']; theme: LiveScanTheme }) {
  const shown = logs.slice(-logLines);
  const first = logs.length - shown.length;
  return (
    <div>
      <h3 id="live-scan-log" className={cn('text-sm font-semibold', theme.look.panelTitle)}>
        Scan log
      </h3>
      <div
        role="log"
        aria-live="polite"
        aria-labelledby="live-scan-log"
        className={cn('mt-2 p-3 font-mono text-xs', theme.look.log)}
      >
        {shown.length === 0 ? (
          <p>Waiting for the scanner…</p>
        ) : (
          <ol className="grid gap-1">
            {shown.map((log, index) => (
              <li key={first + index} className="break-words">
                <span className={theme.look.muted}>
                  {new Date(log.timestamp).toLocaleTimeString('en-GB')}
                </span>{' '}
                [{log.tool}] {log.message}
              </li>
            ))}
          </ol>
        )}
      </div>
    </div>
  );
}
