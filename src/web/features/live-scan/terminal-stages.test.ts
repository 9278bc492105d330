import { describe, expect, it } from 'vitest';
import type { ScanLogEntry, ScanProgress } from '#contract/scan-api.js';
import { stageFill, terminalStageStates } from './terminal-stages';

type Input = Pick<ScanProgress, 'stage' | 'currentTool' | 'logs' | 'engineErrors'>;

const log = (tool: string, message = `Running ${tool}`): ScanLogEntry => ({
  type: 'info',
  message,
  tool,
  timestamp: '2025-01-01T00:00:00.000Z',
});

const states = (input: Partial<Input>) =>
  terminalStageStates({
    stage: 'initializing',
    currentTool: null,
    logs: [],
    engineErrors: {},
    ...input,
  }).map((stage) => stage.state);

describe('the terminal theme follows the real scan', () => {
  it('waits while the page loads', () => {
    expect(states({ stage: 'initializing' })).toEqual(Array(5).fill('waiting'));
  });

  it.each([
    ['axe', ['active', 'waiting', 'waiting', 'waiting', 'waiting']],
    ['pa11y', ['complete', 'active', 'waiting', 'waiting', 'waiting']],
    ['ibm', ['complete', 'complete', 'active', 'waiting', 'waiting']],
    ['checks', ['complete', 'complete', 'complete', 'active', 'waiting']],
    ['keyboard', ['complete', 'complete', 'complete', 'active', 'waiting']],
    ['screenshots', ['complete', 'complete', 'complete', 'complete', 'active']],
  ])('while %s runs the stages read %j', (tool, expected) => {
    expect(states({ stage: 'scanning', currentTool: tool })).toEqual(expected);
  });

  it('treats scoring and the summary as the synthesis stage', () => {
    expect(states({ stage: 'analyzing' })).toEqual([...Array(4).fill('complete'), 'active']);
  });

  it('completes every stage when the scan completes, even those it passed between polls', () => {
    expect(states({ stage: 'complete' })).toEqual(Array(5).fill('complete'));
  });

  it('skips ahead on error, from the engine that was running', () => {
    const logs = [log('system', 'Checking page'), log('axe'), log('pa11y'), log('system', 'boom')];
    expect(states({ stage: 'error', logs })).toEqual(['complete', ...Array(4).fill('skipped')]);
  });

  it('skips every stage when the page never loaded', () => {
    expect(states({ stage: 'error', logs: [log('system', 'Could not load')] })).toEqual(
      Array(5).fill('skipped'),
    );
  });

  it('stops the same way when the scan is aborted', () => {
    const logs = [log('axe'), log('pa11y'), log('ibm'), log('system', 'Scan aborted by the user')];
    expect(states({ stage: 'aborted', logs })).toEqual([
      'complete',
      'complete',
      ...Array(3).fill('skipped'),
    ]);
  });

  it("names an engine's own failure on its stage, which still completes", () => {
    const stages = terminalStageStates({
      stage: 'complete',
      currentTool: null,
      logs: [],
      engineErrors: { axe: 'axe did not finish within 3000 ms' },
    });
    expect(stages[0]).toMatchObject({
      id: 'axe',
      state: 'complete',
      engineError: 'axe did not finish within 3000 ms',
    });
    expect(stages.slice(1).every((stage) => stage.engineError === undefined)).toBe(true);
  });

  it('names a failure of the keyboard walk on the own checks stage', () => {
    const stages = terminalStageStates({
      stage: 'complete',
      currentTool: null,
      logs: [],
      engineErrors: { keyboard: 'keyboard did not finish within 3000 ms' },
    });
    expect(stages[3]).toMatchObject({
      id: 'conformly',
      engineError: 'keyboard did not finish within 3000 ms',
    });
  });
});

describe('stage bars', () => {
  it('fill over the nominal duration and hold at 95 until the scan moves on', () => {
    expect(stageFill('active', 0, 5000)).toBe(0);
    expect(stageFill('active', 2500, 5000)).toBe(50);
    expect(stageFill('active', 60_000, 5000)).toBe(95);
  });

  it('are full when complete and empty when waiting or skipped', () => {
    expect(stageFill('complete', 0, 5000)).toBe(100);
    expect(stageFill('waiting', 9000, 5000)).toBe(0);
    expect(stageFill('skipped', 9000, 5000)).toBe(0);
  });
});
