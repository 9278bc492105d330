import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { scanPage } from '../../scan-page.js';
import { useFixtureSite } from './fixture-site.test-support.js';

/**
 * Pages built the accessible way (a dialog that manages focus, a carousel with buttons, a
 * dismissible tooltip, a live-region status, a labelled form, a skip link, a sortable table, a
 * disclosure menu): operating them must not produce a single violation.
 */
const clean = fileURLToPath(new URL('./__fixtures__/clean/', import.meta.url));
const pages = readdirSync(clean).filter((file) => file.endsWith('.html'));

const fixture = useFixtureSite(clean);

describe('behaviour engine on clean pattern pages', () => {
  it('has the eight pattern pages', () => {
    expect(pages).toHaveLength(8);
  });

  it.each(pages)('reports no violation on %s and leaves the page usable', async (file) => {
    const scan = await scanPage(fixture.pool(), `${fixture.url()}/${file}`, {
      allowPrivateNetwork: true,
      engines: ['behaviour'],
      screenshots: false,
      networkQuietCapMs: 0,
    });
    expect(scan.engineErrors).toEqual({});
    const raw = scan.raw.behaviourRaw;
    expect(raw?.details.failed).toBeUndefined();
    if (process.env.DEBUG_BEHAVIOUR) {
      console.log(
        file,
        raw?.details.interactionsUsed,
        scan.processingTimes.behaviour,
        raw?.results,
      );
    }
    // Every topic ran: the budget did not cut the page short.
    expect(raw?.details.skipped).toBeUndefined();
    const violations = (raw?.results ?? []).filter((result) => result.kind === 'violation');
    expect(violations).toEqual([]);
  });
});
