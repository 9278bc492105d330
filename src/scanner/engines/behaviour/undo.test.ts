import { fileURLToPath } from 'node:url';
import type { Page } from 'puppeteer-core';
import { describe, expect, it } from 'vitest';
import * as keys from './keys.js';
import * as status from './status.js';
import { runTopics } from './topic-test-kit.js';
import { useFixtureSite } from './fixture-site.test-support.js';

const fixtures = fileURLToPath(new URL('./__fixtures__/', import.meta.url));
const statusTopic = { id: 'status', ...status };
const keysTopic = { id: 'keys', ...keys };

const fixture = useFixtureSite(fixtures);

/**
 * What a person sees of the page: its body's markup (without the blank text between tags, which
 * re-appended rows leave elsewhere) and the text shown, so the slide and order shown count.
 */
const pageState = (page: Page) =>
  page.evaluate(() => ({
    html: document.body.innerHTML.replace(/>\s+</g, '><'),
    shown: document.body.innerText,
  }));

/** Runs topics on a page and returns its state before and after, with the interactions noted. */
async function beforeAndAfter(path: string, topics: Parameters<typeof runTopics>[2]) {
  let before: Awaited<ReturnType<typeof pageState>> | undefined;
  let after: Awaited<ReturnType<typeof pageState>> | undefined;
  const raw = await runTopics(
    fixture.pool(),
    `${fixture.url()}/${path}`,
    topics,
    async (page) => {
      after = await pageState(page);
    },
    async (page) => {
      before = await pageState(page);
    },
  );
  const interactions = raw.details.interactions as { target: string; restored?: string }[];
  return { before, after, interactions };
}

describe('what the engine pressed is put back', () => {
  it('presses a sort button again, or undoes the re-sort, until the table is in its first order', async () => {
    const { before, after, interactions } = await beforeAndAfter('clean/sortable-table.html', [
      statusTopic,
    ]);
    expect(after).toEqual(before);
    // 'Shop' was sorted ascending: pressed again it sorts back. 'Town' and 'Opens' never come
    // back to the first order by themselves, so their changes are undone.
    expect(interactions.map((i) => i.restored)).toEqual([
      'pressed again',
      'changes reverted',
      'changes reverted',
    ]);
  });

  it("presses a carousel's opposite control to bring the first slide back, its script in step", async () => {
    const { before, after, interactions } = await beforeAndAfter('undo/carousel.html', [
      statusTopic,
    ]);
    expect(after).toEqual(before);
    expect(interactions).toEqual([
      expect.objectContaining({ target: '#prev', restored: 'pressed the opposite control' }),
      expect.objectContaining({ target: '#next', restored: 'pressed the opposite control' }),
    ]);
    // The script's own slide counter agrees with the slide shown: 'Next' now shows slide 2.
    let second = '';
    await runTopics(
      fixture.pool(),
      `${fixture.url()}/undo/carousel.html`,
      [statusTopic],
      async (page) => {
        await page.click('#next');
        second = await page.evaluate(() => document.body.innerText);
      },
    );
    expect(second).toContain('Island hopping');
  });

  it('puts back a message that a single-key shortcut deleted (2.1.4)', async () => {
    const { before, after, interactions } = await beforeAndAfter('keys/keys-shift-bad.html', [
      keysTopic,
    ]);
    expect(after).toEqual(before);
    expect(after?.shown).toContain('Your booking is confirmed');
    const reverted = interactions.filter((i) => i.restored === 'changes reverted');
    // The batch with Shift+D, and Shift+D pressed alone.
    expect(reverted.length).toBe(2);
    expect(interactions.every((i) => i.restored !== 'not restored')).toBe(true);
  });
});
