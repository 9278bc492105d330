import type { ScanProgress } from '#contract/scan-api.js';

/**
 * The terminal theme's stages: the spec's four (§2: axe 5 s, Pa11y 4 s, IBM 6 s, AI synthesis 3 s)
 * and, before synthesis, Conformly's own link, presentation and keyboard checks (ADR 0015).
 * The spec's demo ran them on timers; here they follow the real scan. The durations are only the
 * nominal estimates an active stage's bar fills over: a stage is complete once the scan has moved
 * past it, however long that took.
 */
export const terminalStages = [
  { id: 'axe', label: 'axe-core', durationMs: 5000 },
  { id: 'pa11y', label: 'Pa11y', durationMs: 4000 },
  { id: 'ibm', label: 'IBM Equal Access', durationMs: 6000 },
  { id: 'conformly', label: 'Keyboard and link checks', durationMs: 2000 },
  { id: 'synthesis', label: 'AI synthesis', durationMs: 3000 },
] as const;

export type TerminalStageId = (typeof terminalStages)[number]['id'];

/**
 * waiting, active and complete are the spec's; skipped marks the stages a failed or stopped scan
 * never finished ("on error it skips ahead"), rather than claiming they completed.
 */
export type TerminalStageState = 'waiting' | 'active' | 'complete' | 'skipped';

export interface TerminalStageView {
  id: TerminalStageId;
  label: string;
  durationMs: number;
  state: TerminalStageState;
  /** The engine's own failure: the scan went on without it (spec "engineErrors"). */
  engineError?: string | undefined;
}

type StageInput = Pick<ScanProgress, 'stage' | 'currentTool' | 'logs' | 'engineErrors'>;

/** Conformly's own engines share one stage. */
const stageOfTool = (tool: string | null | undefined) =>
  tool === 'checks' || tool === 'keyboard' || tool === 'behaviour' ? 'conformly' : tool;

const indexOfTool = (tool: string | null | undefined): number =>
  terminalStages.findIndex((stage) => stage.id === stageOfTool(tool));

const synthesis = terminalStages.findIndex((stage) => stage.id === 'synthesis');

/**
 * Where the scan is, as an index into terminalStages: -1 while the page loads, its length when
 * complete.
 * While it runs, the current tool says (screenshots and scoring count as synthesis). A scan that
 * failed or was stopped no longer has a current tool, so its log says which engine started last.
 */
function position(progress: StageInput): number {
  switch (progress.stage) {
    case 'initializing':
      return -1;
    case 'scanning':
      if (progress.currentTool === 'screenshots') return synthesis;
      return Math.max(indexOfTool(progress.currentTool), 0);
    case 'analyzing':
      return synthesis;
    case 'complete':
      return terminalStages.length;
    case 'error':
    case 'aborted':
      for (const log of [...progress.logs].reverse()) {
        const index = indexOfTool(log.tool);
        if (index >= 0) return index;
      }
      return 0;
  }
}

/** The stages for one progress answer: a pure function of what the server reported. */
export function terminalStageStates(progress: StageInput): TerminalStageView[] {
  const at = position(progress);
  const ended = progress.stage === 'error' || progress.stage === 'aborted';
  return terminalStages.map((stage, index) => {
    let state: TerminalStageState;
    if (index < at) state = 'complete';
    else if (ended) state = 'skipped';
    else state = index === at ? 'active' : 'waiting';
    const engineError =
      stage.id === 'synthesis'
        ? undefined
        : stage.id === 'conformly'
          ? progress.engineErrors.checks ||
            progress.engineErrors.keyboard ||
            progress.engineErrors.behaviour ||
            undefined
          : progress.engineErrors[stage.id] || undefined;
    return { ...stage, state, engineError };
  });
}

/**
 * How full a stage's bar is, in percent. An active stage fills over its nominal duration but stops
 * at 95 until the real scan moves on, so the bar never says done before the scan does.
 */
export function stageFill(state: TerminalStageState, activeForMs: number, durationMs: number) {
  if (state === 'complete') return 100;
  if (state !== 'active') return 0;
  return Math.min(95, Math.max(0, Math.round((activeForMs / durationMs) * 100)));
}
