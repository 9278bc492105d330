import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import CliTable from 'cli-table3';
import { axeTags, createPagePool } from '../../src/scanner/index.js';
import { loadPackageScript } from '../../src/scanner/engines/package-files.js';
import { defaultEngineIds } from '../../src/contract/engine-ids.js';
import { ibmPolicy, ibmRulesSkipped } from '../../src/scanner/engines/ibm/index.js';
import { startBenchSite } from './site.js';
import { round } from './stats.js';
import { benchDir } from './tools.js';

/**
 * `npx tsx bench/scan/engine-rules.ts`: where axe's and IBM's time goes, rule by rule, on the
 * benchmark site (its 50 pages and the 1,500-element page). axe's own `performanceTimer` marks
 * (`rule_<id>` measures in the page), IBM's `ruleTime` on every result it reports (passes
 * included). The engines run as the product runs them (same tags, same policy, the same IBM rules
 * left out), one page at a time in one tab, so the figures add up to the engines' own time.
 *
 *   npx tsx bench/scan/engine-rules.ts [--pages 50] [--top 15] [--all-ibm-rules]
 */

const { values: args } = parseArgs({
  options: {
    pages: { type: 'string', default: '50' },
    top: { type: 'string', default: '15' },
    'all-ibm-rules': { type: 'boolean', default: false },
  },
});

/**
 * The IBM rules the product leaves out with its default engines (ADR 0040, 0047); none with
 * `--all-ibm-rules`, to see what those would cost.
 */
const ibmSkipped = args['all-ibm-rules'] ? [] : ibmRulesSkipped(defaultEngineIds);

type Totals = Map<string, { ms: number; pages: number }>;

function add(totals: Totals, id: string, ms: number): void {
  const entry = totals.get(id) ?? { ms: 0, pages: 0 };
  entry.ms += ms;
  entry.pages += 1;
  totals.set(id, entry);
}

async function main(): Promise<void> {
  const site = await startBenchSite();
  const pool = createPagePool({ size: 1, egress: { allowPrivateNetwork: true } });
  const axeRules: Totals = new Map();
  const ibmRules: Totals = new Map();
  let axeWall = 0;
  let ibmWall = 0;
  const paths = [...site.pages.slice(0, Number(args.pages)).map((p) => p.path), site.large.path];
  try {
    for (const path of paths) {
      await pool.withPage(async (page) => {
        await page.goto(`${site.url}${path}`, { waitUntil: 'load' });
        await loadPackageScript(page, 'axe-core/axe.min.js');
        const axe = await page.evaluate(
          async (tags: string[]) => {
            const started = performance.now();
            const run = (
              window as unknown as {
                axe: { run(ctx: Document, options: object): Promise<unknown> };
              }
            ).axe.run;
            await run(document, {
              runOnly: { type: 'tag', values: tags },
              resultTypes: ['violations', 'incomplete'],
              performanceTimer: true,
            });
            const wall = performance.now() - started;
            const rules = performance
              .getEntriesByType('measure')
              .filter((entry) => entry.name.startsWith('rule_') && !entry.name.includes('#'))
              .map((entry) => [entry.name.slice(5), entry.duration] as const);
            return { wall, rules };
          },
          [...axeTags],
        );
        axeWall += axe.wall;
        for (const [id, ms] of axe.rules) add(axeRules, id, ms);

        await loadPackageScript(page, 'accessibility-checker-engine/ace.js');
        const ibm = await page.evaluate(
          async (policy: string, skipped: readonly string[]) => {
            const started = performance.now();
            const ace = (
              window as unknown as {
                ace: {
                  Checker: new () => {
                    check(
                      doc: Document,
                      policies: string[],
                    ): Promise<{ results: { ruleId: string; ruleTime: number }[] }>;
                    rulesetRules: Record<string, string[] | undefined>;
                  };
                };
              }
            ).ace;
            // The rules left out as the IBM engine leaves them out (src/scanner/engines/ibm).
            const checker = new ace.Checker();
            const enabled = checker.rulesetRules[policy];
            if (enabled) {
              checker.rulesetRules[policy] = enabled.filter((ruleId) => !skipped.includes(ruleId));
            }
            const report = await checker.check(document, [policy]);
            const wall = performance.now() - started;
            // ruleTime is the rule's time on one element, repeated on each of its results.
            const byRule: Record<string, number> = {};
            for (const result of report.results) {
              byRule[result.ruleId] = (byRule[result.ruleId] ?? 0) + result.ruleTime;
            }
            return { wall, rules: Object.entries(byRule), results: report.results.length };
          },
          ibmPolicy,
          ibmSkipped,
        );
        ibmWall += ibm.wall;
        for (const [id, ms] of ibm.rules) add(ibmRules, id, ms);
      });
    }
  } finally {
    await pool.close();
    await site.close();
  }

  const report = (name: string, totals: Totals, wall: number) => {
    const sum = [...totals.values()].reduce((acc, entry) => acc + entry.ms, 0);
    const sorted = [...totals.entries()].sort((a, b) => b[1].ms - a[1].ms);
    const table = new CliTable({
      head: ['Rule', 'ms per page', 'share of rule time'],
      style: { head: [], border: [] },
    });
    for (const [id, entry] of sorted.slice(0, Number(args.top))) {
      table.push([id, round(entry.ms / paths.length, 1), `${round((100 * entry.ms) / sum, 1)}%`]);
    }
    console.log(
      `\n${name}: ${round(wall / paths.length, 0)} ms per page in the page, of which rules ${round(sum / paths.length, 0)} ms (${totals.size} rules; ${paths.length} pages)`,
    );
    console.log(table.toString());
    return {
      wallMsPerPage: round(wall / paths.length, 1),
      ruleMsPerPage: round(sum / paths.length, 1),
      rules: sorted.map(([id, entry]) => ({ id, msPerPage: round(entry.ms / paths.length, 2) })),
    };
  };
  const result = {
    pages: paths.length,
    axe: report('axe-core', axeRules, axeWall),
    ibm: report('IBM Equal Access', ibmRules, ibmWall),
  };
  mkdirSync(join(benchDir, 'results'), { recursive: true });
  const file = join(
    benchDir,
    'results',
    `engine-rules-${new Date().toISOString().replace(/[:.]/g, '-')}.json`,
  );
  writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
  console.log(`\nWrote ${file}`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exitCode = 1;
});
