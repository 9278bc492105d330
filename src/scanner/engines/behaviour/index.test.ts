import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { defaultEngineIds, engineIds } from '#contract/index.js';
import { scanPage } from '../../scan-page.js';
import { builtInEngines, engineRunOrder } from '../registry.js';
import { behaviourEngine } from './index.js';
import { useFixtureSite } from './fixture-site.test-support.js';

const fixtures = fileURLToPath(new URL('./__fixtures__/', import.meta.url));

const fixture = useFixtureSite(fixtures);

describe('behaviour engine registration', () => {
  it('is a known engine that a scan runs only when asked for', () => {
    expect(engineIds).toContain('behaviour');
    expect(defaultEngineIds).not.toContain('behaviour');
    expect(builtInEngines.get('behaviour')).toBe(behaviourEngine);
    expect(engineRunOrder()).toEqual(['axe', 'pa11y', 'ibm', 'checks', 'keyboard']);
    expect(engineRunOrder(['behaviour', 'axe'])).toEqual(['axe', 'behaviour']);
  });
});

describe('behaviour engine in a page scan', () => {
  it('reports a change of context on input as a violation issue with the state it was found in', async () => {
    const scan = await scanPage(fixture.pool(), `${fixture.url()}/context/on-input-bad.html`, {
      allowPrivateNetwork: true,
      engines: ['behaviour'],
      screenshots: false,
      networkQuietCapMs: 0,
    });
    expect(scan.engines).toEqual(['behaviour']);
    expect(scan.engineErrors).toEqual({});
    expect(scan.processingTimes.behaviour).toBeGreaterThan(0);
    const findings = scan.issues
      .filter((i) => i.ruleKey === 'input-changes-context')
      .flatMap((i) => i.findings);
    expect(findings.map((f) => [f.engine, f.kind, f.selector])).toEqual(
      expect.arrayContaining([
        ['behaviour', 'violation', '#region'],
        ['behaviour', 'violation', '#map'],
        ['behaviour', 'violation', '#open-now'],
      ]),
    );
    expect(findings).toHaveLength(3);
    expect(findings.find((f) => f.selector === '#region')?.extras).toMatchObject({
      details: { state: "after choose 'south'" },
    });
    const raw = scan.raw.behaviourRaw;
    expect(raw?.details.interactionsUsed).toBeGreaterThan(0);
    expect(raw?.details.refused).toContainEqual({ kind: 'form-submit-refused', form: '#search' });
  });
});
