import type { ScanStage } from '#contract/scan-api.js';

/** Spec §2 (raw results): what each stage of a scan is called on screen. */
export const stageLabels: Record<ScanStage, string> = {
  initializing: 'Initializing scanners',
  scanning: 'Running accessibility analysis',
  analyzing: 'Processing results',
  complete: 'Analysis complete',
  error: 'Scan failed',
  aborted: 'Scan cancelled',
};

export const engineNames: Record<string, string> = {
  axe: 'axe-core',
  pa11y: 'Pa11y',
  ibm: 'IBM Equal Access',
  checks: 'Link and presentation checks',
  keyboard: 'Keyboard walk',
};

const finalStages: ReadonlySet<ScanStage> = new Set(['complete', 'error', 'aborted']);

/** After these stages nothing about a scan changes any more, so polling stops (spec §4). */
export function isFinalStage(stage: ScanStage | undefined): boolean {
  return stage !== undefined && finalStages.has(stage);
}
