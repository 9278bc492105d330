/**
 * Runs every W3C ACT test case through the product's scanPage and measures, per ACT rule, how
 * consistent the merged output is with W3C's expected outcomes, beside each engine alone.
 *
 *   npm run act [-- --rules 674b10,afw4f7] [--tabs 2] [--dry-run]
 *               [--save-raw FILE.jsonl] [--from-raw FILE.jsonl] [--cases-json FILE]
 *
 * --save-raw keeps every case's raw engine output; --from-raw re-scores such a run with the
 * current analysis and data tables, without a browser (for tuning precision.json and rule keys).
 * Writes docs/act-conformance.md and test/act/act-baseline.json (unless --dry-run or --rules).
 * The corpus is read in place from ../shared/corpus/act (ACT_CORPUS_DIR overrides).
 */
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { format, resolveConfig } from 'prettier';
import { toBaseline } from '#scanner/act/baseline.js';
import { actCorpusDir, describeCorpus, isApproved, loadActManifest } from '#scanner/act/corpus.js';
import { renderActReport } from '#scanner/act/report.js';
import type { ActCaseResult, StoredActScan } from '#scanner/act/runner.js';
import { rescoreStoredScan, runActCases, storedScan } from '#scanner/act/runner.js';
import { scoreRules, summarize } from '#scanner/act/scoring.js';
import { actSources } from '#scanner/act/outcome.js';
import { createPagePool } from '#scanner/browser-pool.js';
import { findSharedDir } from '../test/support/shared-dir.js';
import { startStaticServer } from '../test/support/static-server.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { values: args } = parseArgs({
  options: {
    rules: { type: 'string' },
    tabs: { type: 'string', default: '2' },
    'cases-json': { type: 'string' },
    'dry-run': { type: 'boolean', default: false },
    'save-raw': { type: 'string' },
    'from-raw': { type: 'string' },
  },
});

const corpusDir = actCorpusDir(findSharedDir());
const manifest = loadActManifest(corpusDir);
const only = args.rules ? new Set(args.rules.split(',')) : undefined;
const cases = manifest.cases.filter((c) => !only || only.has(c.rule_id));
const tabs = Math.max(1, Number(args.tabs));

const started = Date.now();
const results = args['from-raw'] ? rescore(args['from-raw']) : await scanAll();
const durationMs = Date.now() - started;

const rules = scoreRules(manifest.rules, results);
// The versions of a case on which every engine ran.
const engineVersions =
  results.reduce<(typeof results)[number] | undefined>(
    (best, r) =>
      !best || Object.keys(r.engineVersions).length > Object.keys(best.engineVersions).length
        ? r
        : best,
    undefined,
  )?.engineVersions ?? {};
const measuredAt = new Date().toISOString().slice(0, 10);

if (args['cases-json']) writeFileSync(args['cases-json'], `${JSON.stringify(results, null, 1)}\n`);

for (const [title, set] of [
  [
    'Approved rules',
    rules.filter((r) => manifest.rules.some((m) => m.id === r.id && isApproved(m))),
  ],
  ['All rules', rules],
] as const) {
  console.log(
    `\n${title} (${set.length}), ${results.length} cases in ${Math.round(durationMs / 1000)} s`,
  );
  for (const source of actSources) {
    const s = summarize(set, source);
    console.log(
      `  ${source.padEnd(7)} full ${s.labels.full}  part ${s.labels.part}  INCONS ${s.labels.INCONS}  - ${s.labels['-']}` +
        `  detected ${s.detected}/${s.failed} (+${s.reviewOnly} review)  false alarms ${s.falseAlarms}/${s.negatives}`,
    );
  }
}

if (args['dry-run'] || only) {
  console.log('\nNot written (--dry-run or --rules).');
} else {
  const doc = renderActReport(rules, results, {
    measuredAt,
    engineVersions,
    corpus: describeCorpus(manifest),
    durationMs: args['from-raw'] ? undefined : durationMs,
    tabs,
  });
  // Written as the formatter would write them, so `npm run format:check` stays green.
  const docPath = join(repoRoot, 'docs', 'act-conformance.md');
  const baselinePath = join(repoRoot, 'test', 'act', 'act-baseline.json');
  const baseline = toBaseline(rules, { measuredAt, engineVersions, cases: results.length });
  writeFileSync(docPath, await formatted(docPath, doc));
  writeFileSync(baselinePath, await formatted(baselinePath, JSON.stringify(baseline)));
  console.log('\nWrote docs/act-conformance.md and test/act/act-baseline.json');
}

async function scanAll(): Promise<ActCaseResult[]> {
  const saveRaw = args['save-raw'];
  if (saveRaw) writeFileSync(saveRaw, '');
  const server = await startStaticServer(corpusDir, {
    mountPath: manifest.serving.asset_url_prefix,
  });
  const pool = createPagePool({ size: tabs });
  try {
    return await runActCases(pool, server.url, manifest, cases, {
      concurrency: tabs,
      onScan: (c, scan) => {
        if (saveRaw) appendFileSync(saveRaw, `${JSON.stringify(storedScan(c, scan))}\n`);
      },
      onCase: (r, done, total) => {
        if (done % 50 === 0 || done === total) {
          const seconds = Math.round((Date.now() - started) / 1000);
          process.stderr.write(`${done}/${total} cases, ${seconds} s\n`);
        }
        if (r.scanError) {
          process.stderr.write(`  ${r.ruleId} ${r.title}: ${r.scanError}\n`);
          if (saveRaw) {
            const line: StoredActScan = { caseId: r.caseId, scanError: r.scanError };
            appendFileSync(saveRaw, `${JSON.stringify(line)}\n`);
          }
        }
      },
    });
  } finally {
    await pool.close();
    await server.close();
  }
}

function rescore(file: string): ActCaseResult[] {
  const stored = new Map<string, StoredActScan>();
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const scan = JSON.parse(line) as StoredActScan;
    stored.set(scan.caseId, scan);
  }
  return cases.map((c) => rescoreStoredScan(manifest, c, stored.get(c.id)));
}

async function formatted(path: string, text: string): Promise<string> {
  const config = (await resolveConfig(path)) ?? {};
  return format(text, { ...config, filepath: path });
}
