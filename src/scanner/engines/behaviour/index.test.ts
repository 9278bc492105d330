import { describe, expect, it } from 'vitest';
import { defaultEngineIds, engineIds } from '#contract/index.js';
import { builtInEngines, engineRunOrder } from '../registry.js';
import { behaviourEngine } from './index.js';

describe('behaviour engine registration', () => {
  it('is a known engine that a scan runs only when asked for', () => {
    expect(engineIds).toContain('behaviour');
    expect(defaultEngineIds).not.toContain('behaviour');
    expect(builtInEngines.get('behaviour')).toBe(behaviourEngine);
    expect(engineRunOrder()).toEqual(['axe', 'pa11y', 'ibm', 'checks', 'keyboard']);
    expect(engineRunOrder(['behaviour', 'axe'])).toEqual(['axe', 'behaviour']);
  });
});
