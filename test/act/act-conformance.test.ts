/**
 * Locks in the merged scanner's consistency with the W3C ACT test cases: every case of
 * ../shared/corpus/act is scanned with the real scanPage, and per ACT rule the merged output must
 * detect at least as many failed cases, and raise at most as many false alarms, as
 * test/act/act-baseline.json records. Improvements pass; `npm run act` locks them in.
 *
 * The 33 approved rules (546 cases) run by default: the whole corpus (855 cases) takes over
 * 6 minutes on 2 cores, since every case is a full three-engine scan. ACT_FULL=1 locks all 54
 * rules; `npm run act` always measures all of them.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActBaseline } from '#scanner/act/baseline.js';
import { compareToBaseline } from '#scanner/act/baseline.js';
import { actCorpusDir, loadActManifest } from '#scanner/act/corpus.js';
import { runActCases } from '#scanner/act/runner.js';
import type { ActRuleResult } from '#scanner/act/scoring.js';
import { scoreRules } from '#scanner/act/scoring.js';
import type { PagePool } from '#scanner/types.js';
import { createSharedPagePool } from '../support/browser.js';
import { findSharedDir } from '../support/shared-dir.js';
import { startStaticServer, type TestServer } from '../support/static-server.js';

const here = dirname(fileURLToPath(import.meta.url));
const corpusDir = actCorpusDir(findSharedDir());
const manifest = loadActManifest(corpusDir);
const baseline = JSON.parse(readFileSync(join(here, 'act-baseline.json'), 'utf8')) as ActBaseline;
const full = process.env.ACT_FULL === '1' || process.env.ACT_FULL === 'true';
const lockedRules = Object.entries(baseline.rules)
  .filter(([, rule]) => full || rule.status === 'approved')
  .map(([id]) => id);
const cases = manifest.cases.filter((c) => lockedRules.includes(c.rule_id));

let server: TestServer;
let pool: PagePool;
let measured: ActRuleResult[] = [];

beforeAll(async () => {
  server = await startStaticServer(corpusDir, { mountPath: manifest.serving.asset_url_prefix });
  pool = createSharedPagePool({ size: 2 });
  const results = await runActCases(pool, server.url, manifest, cases, { concurrency: 2 });
  measured = scoreRules(manifest.rules, results);
}, 40 * 60_000);

afterAll(async () => {
  await pool?.close();
  await server?.close();
  const locked = Object.fromEntries(lockedRules.map((id) => [id, baseline.rules[id]!]));
  const { improvements } = compareToBaseline({ ...baseline, rules: locked }, measured);
  if (improvements.length > 0) {
    console.log(
      `ACT conformance improved on ${improvements.length} rule(s):\n  ${improvements.join('\n  ')}\n` +
        'Run `npm run act` to lock the new results in (test/act/act-baseline.json).',
    );
  }
});

describe('ACT conformance of the merged output', () => {
  it('covers every case of the locked rules', () => {
    const lockedCases = lockedRules.reduce((sum, id) => {
      const r = baseline.rules[id]!;
      return sum + r.failed + r.passed + r.inapplicable;
    }, 0);
    expect(cases.length).toBe(lockedCases);
  });

  it.each(lockedRules)(
    'rule %s detects no fewer failed cases and raises no more false alarms',
    (id) => {
      const locked = baseline.rules[id];
      const { regressions } = compareToBaseline(
        { ...baseline, rules: { [id]: locked! } },
        measured,
      );
      expect(
        regressions,
        'compare with docs/act-conformance.md; `npm run act` re-measures',
      ).toEqual([]);
    },
  );
});
