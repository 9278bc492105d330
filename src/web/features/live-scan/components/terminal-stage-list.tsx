import type { ScanProgress } from '#contract/scan-api.js';
import { cn } from '../../../lib/cn';
import { useElapsedSince } from '../hooks/use-elapsed';
import { stageFill, terminalStageStates, type TerminalStageState } from '../terminal-stages';
import type { LiveScanLook } from '../themes';

const stateText: Record<TerminalStageState, string> = {
  waiting: 'waiting',
  active: 'active',
  complete: 'complete',
  skipped: 'skipped',
};

/** The 'Accessibility Defense Grid': four stages driven by the real scan's progress. */
export function TerminalStageList({
  progress,
  look,
}: {
  progress: ScanProgress;
  look: LiveScanLook;
}) {
  const stages = terminalStageStates(progress);
  const active = stages.find((stage) => stage.state === 'active');
  const activeFor = useElapsedSince(active ? `${progress.scanId}:${active.id}` : undefined);
  return (
    <ol aria-label="Scan stages" className="grid gap-3">
      {stages.map((stage, index) => (
        <li key={stage.id} className="grid gap-1">
          <div className="flex flex-wrap items-baseline justify-between gap-2 text-sm">
            <span className={look.panelTitle}>
              [{index + 1}/{stages.length}] {stage.label}
              <span className={cn('ml-2 text-xs normal-case', look.muted)}>
                est. {stage.durationMs / 1000} s
              </span>
            </span>
            <span
              className={cn(
                'text-xs uppercase',
                stage.state === 'complete' && look.success,
                stage.state === 'skipped' && look.dangerTitle,
                (stage.state === 'waiting' || stage.state === 'active') && look.muted,
              )}
            >
              <span className="sr-only">{stage.label}: </span>
              {stateText[stage.state]}
            </span>
          </div>
          <div aria-hidden="true" className={cn('h-2 w-full overflow-hidden', look.track)}>
            <div
              className={cn(
                'h-full transition-[width] duration-300 motion-reduce:transition-none',
                look.bar,
              )}
              style={{
                width: `${stageFill(stage.state, stage.state === 'active' ? activeFor : 0, stage.durationMs)}%`,
              }}
            />
          </div>
          {stage.engineError && (
            <p className={cn('text-xs', look.dangerTitle)}>
              {stage.label} failed: {stage.engineError}
            </p>
          )}
        </li>
      ))}
    </ol>
  );
}
