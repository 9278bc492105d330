import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { OwnCheckResult } from '#contract/index.js';
import { scanPage } from '../../scan-page.js';
import { run } from './disclosure.js';
import type { BehaviourSession } from './session.js';
import { useFixtureSite } from './fixture-site.test-support.js';

const fixtures = fileURLToPath(new URL('./__fixtures__/', import.meta.url));

const fixture = useFixtureSite(fixtures);

/** Loads a fixture and runs the disclosure checks on it with a plain session. */
async function disclose(file: string): Promise<OwnCheckResult[]> {
  return fixture.pool().withPage(async (page) => {
    await page.setViewport({ width: 1280, height: 1024 });
    await page.goto(`${fixture.url()}/${file}`, { waitUntil: 'load' });
    const cdp = await page.createCDPSession();
    let left = 60;
    const session = {
      page,
      cdp,
      context: { level: 'AA' } as BehaviourSession['context'],
      spend: (n = 1) => (left -= n) >= 0,
      timeUp: () => false,
      note: (entry: unknown) => {
        if (process.env.DEBUG_BEHAVIOUR) console.log(JSON.stringify(entry));
      },
      restore: async () => undefined,
    } satisfies BehaviourSession;
    try {
      const started = Date.now();
      const results = await run(session);
      if (process.env.DEBUG_BEHAVIOUR) console.log(file, Date.now() - started, 'ms', 60 - left);
      return results;
    } finally {
      await cdp.detach();
    }
  });
}

const summary = (results: readonly OwnCheckResult[]) =>
  results.map(({ check, kind, wcag, selector, details }) => ({
    check,
    kind,
    wcag,
    selector,
    state: details?.state,
  }));

describe('disclosure states', () => {
  it('finds a modal dialog that focus does not reach (F85)', async () => {
    const results = await disclose('disclosure/dialog-focus-stays.html');
    expect(summary(results)).toEqual([
      {
        check: 'dialog-focus-not-moved',
        kind: 'violation',
        wcag: ['2.4.3'],
        selector: '#open',
        state: "after opening 'Read the privacy notice'",
      },
    ]);
  });

  it('finds a modal dialog that Tab leaves for the page it covers', async () => {
    const results = await disclose('disclosure/modal-focus-escapes.html');
    expect(summary(results)).toEqual([
      {
        check: 'modal-focus-escapes',
        kind: 'violation',
        wcag: ['2.4.3', '2.4.11'],
        selector: '#backdrop > div',
        state: "after opening 'Change language'",
      },
    ]);
  });

  it('asks for a review when focus is lost after the dialog closes', async () => {
    const results = await disclose('disclosure/dialog-focus-lost.html');
    expect(summary(results)).toEqual([
      {
        check: 'dialog-focus-not-returned',
        kind: 'needs-review',
        wcag: ['2.4.3'],
        selector: '#open',
        state: "after opening 'Read the privacy notice'",
      },
    ]);
    expect(results[0]?.details).toMatchObject({ closedBy: 'Escape', focusAfterClose: null });
  });

  it('finds an accordion only a click opens, and the unlabelled field inside it', async () => {
    const results = await disclose('disclosure/accordion-mouse-only.html');
    expect(summary(results)).toEqual([
      expect.objectContaining({
        check: 'mouse-only-control',
        kind: 'violation',
        wcag: ['2.1.1'],
        state: "after opening 'How do I track my order?'",
      }),
      expect.objectContaining({
        check: 'state:label',
        kind: 'violation',
        wcag: ['4.1.2'],
        state: "after opening 'How do I track my order?'",
      }),
    ]);
  });

  it('finds the barriers inside a lightbox that a delegated click opens', async () => {
    const results = await disclose('disclosure/lightbox.html');
    const found = summary(results).map(({ check, kind }) => `${check} ${kind}`);
    expect(found).toEqual(
      expect.arrayContaining(['dialog-focus-not-moved violation', 'state:image-alt violation']),
    );
    expect(results.every((r) => r.details?.state === "after opening 'The garden'")).toBe(true);
  });

  it('reports nothing on a native dialog and an accordion built right', async () => {
    expect(summary(await disclose('disclosure/dialog-ok.html'))).toEqual([]);
    expect(summary(await disclose('disclosure/accordion-ok.html'))).toEqual([]);
    expect(summary(await disclose('disclosure/tabs-ok.html'))).toEqual([]);
  });

  it('reports through the scanner, each finding naming the state it was found in', async () => {
    const options = {
      allowPrivateNetwork: true,
      engines: ['axe' as const, 'behaviour' as const],
      screenshots: false,
      networkQuietCapMs: 0,
    };
    const scan = await scanPage(
      fixture.pool(),
      `${fixture.url()}/disclosure/accordion-mouse-only.html`,
      options,
    );
    expect(scan.engineErrors).toEqual({});
    const state = "after opening 'How do I track my order?'";
    // The field is hidden when the page loads: axe alone does not see it.
    const label = scan.issues.find(
      (i) => i.engines.includes('behaviour') && i.wcag.includes('4.1.2'),
    );
    // It carries axe's rule key (the ACT rule), so it merges with axe's finding on the element.
    expect(label).toMatchObject({
      kind: 'violation',
      ruleKey: 'e086e5',
      title: 'Form field has no label',
    });
    expect(label?.engines).toEqual(['behaviour']);
    expect(label?.findings[0]?.extras.details).toMatchObject({
      state,
      engine: 'axe',
      ruleId: 'label',
    });
    const opener = scan.issues.find((i) => i.ruleKey === 'mouse-only-control');
    expect(opener).toMatchObject({ kind: 'violation', wcag: ['2.1.1'] });
    expect(opener?.findings[0]?.extras.details).toMatchObject({ state });
    expect(scan.raw.behaviourRaw?.details.interactions).toEqual(
      expect.arrayContaining([expect.objectContaining({ check: 'disclosure' })]),
    );

    const clean = await scanPage(
      fixture.pool(),
      `${fixture.url()}/disclosure/accordion-ok.html`,
      options,
    );
    expect(clean.engineErrors).toEqual({});
    expect(clean.issues.filter((i) => i.engines.includes('behaviour'))).toEqual([]);
  });

  it('a page with a hover menu, an accordion and a lightbox gets findings inside each state', async () => {
    const scan = await scanPage(fixture.pool(), `${fixture.url()}/site/cottage.html`, {
      allowPrivateNetwork: true,
      engines: ['axe', 'behaviour'],
      screenshots: false,
      networkQuietCapMs: 0,
    });
    expect(scan.engineErrors).toEqual({});
    const behaviour = scan.issues
      .filter((issue) => issue.engines.includes('behaviour'))
      .map((issue) => ({
        ruleKey: issue.ruleKey,
        kind: issue.kind,
        state: (issue.findings[0]?.extras.details as { state?: string } | undefined)?.state,
      }));
    if (process.env.DEBUG_BEHAVIOUR) console.log(JSON.stringify(scan.raw.behaviourRaw?.details));
    expect(behaviour).toEqual(
      expect.arrayContaining([
        { ruleKey: 'hover-only-content', kind: 'violation', state: undefined },
        {
          ruleKey: 'mouse-only-control',
          kind: 'violation',
          state: "after opening 'Can I bring my dog?'",
        },
        { ruleKey: 'e086e5', kind: 'violation', state: "after opening 'Can I bring my dog?'" },
        {
          ruleKey: 'dialog-focus-not-moved',
          kind: 'violation',
          state: "after opening 'The lake at dawn'",
        },
        { ruleKey: '23a2a8', kind: 'violation', state: "after opening 'The lake at dawn'" },
      ]),
    );
    // Every report names the state: the finding's message leads with it.
    const inLightbox = scan.issues.find((issue) => issue.ruleKey === 'dialog-focus-not-moved');
    expect(inLightbox?.findings[0]?.message).toMatch(/^After opening 'The lake at dawn': /);
    // The page is as it was: nothing left open.
    expect(scan.raw.behaviourRaw?.details.failed).toBeUndefined();
  });
});
