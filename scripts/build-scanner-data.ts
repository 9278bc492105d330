/**
 * Builds the compact data tables the scanner's analysis reads (src/scanner/data/*.json) from the
 * reference snapshots in ../shared/data (engine rule metadata, WCAG success criteria), the ACT
 * corpus manifest, each engine's precision per ACT rule as `npm run act` measured it
 * (test/act/act-baseline.json), plus the hand-checked rule-key tables in
 * src/scanner/analysis/rule-key-tables.ts.
 *
 *   npx tsx scripts/build-scanner-data.ts [--shared ../shared]
 *
 * The output is committed; the product never reads ../shared at run time.
 */
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  axeExtraKeys,
  bestPracticeKeys,
  corroboratedKeys,
  ibmExtraKeys,
  ibmKeyOverrides,
  ibmReasonKeys,
  ibmRoleKeys,
  htmlcsKeyRows,
  namedKeyTitles,
  pageLevelKeys,
} from '#scanner/analysis/rule-key-tables.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const sharedArg = process.argv.indexOf('--shared');
const shared = resolve(
  sharedArg > 0 ? (process.argv[sharedArg + 1] ?? '') : join(repoRoot, '..', 'shared'),
);
const outDir = join(repoRoot, 'src', 'scanner', 'data');

const readJson = <T>(path: string): T => JSON.parse(readFileSync(join(shared, path), 'utf8')) as T;

type Impact = 'critical' | 'serious' | 'moderate' | 'minor';
const impactRank: Record<Impact, number> = { critical: 4, serious: 3, moderate: 2, minor: 1 };
const maxImpact = (a: Impact | undefined, b: Impact): Impact =>
  a === undefined || impactRank[b] > impactRank[a] ? b : a;

// ---- WCAG success criteria -------------------------------------------------------------------
interface ScSnapshot {
  num: string;
  handle: string;
  level: 'A' | 'AA' | 'AAA' | '';
  understandingUrl: string;
  versions: string[];
}
const wcagSnapshot = readJson<{ successCriteria: ScSnapshot[] }>('data/wcag/success-criteria.json');
const wcag: Record<string, { level: string; handle: string; url: string }> = {};
for (const sc of wcagSnapshot.successCriteria) {
  // 4.1.1 is obsolete in 2.2 and has no level there; it stays level A of WCAG 2.0/2.1.
  wcag[sc.num] = { level: sc.level || 'A', handle: sc.handle, url: sc.understandingUrl };
}

// ---- ACT rule names ---------------------------------------------------------------------------
interface ActRule {
  id: string;
  name: string;
  counts: { passed: number; failed: number; inapplicable: number };
}
const manifest = readJson<{ rules: ActRule[] }>('corpus/act/manifest.json');
const actNames = new Map(manifest.rules.map((r) => [r.id, r.name]));

// ---- axe-core ---------------------------------------------------------------------------------
interface AxeSnapshotRule {
  ruleId: string;
  help: string;
  helpUrl: string;
  impact: Impact;
  wcag: string[];
  bestPractice: boolean;
  actIds: string[];
}
const axeSnapshot = readJson<{ source: { version: string }; rules: AxeSnapshotRule[] }>(
  'data/engines/axe-core-rules.json',
);
const axeRules: Record<string, unknown> = {};
const keyImpact: Record<string, Impact> = {};
for (const r of axeSnapshot.rules) {
  const keys = unique([...r.actIds, ...(axeExtraKeys[r.ruleId] ?? [])]);
  if (keys.length === 0) keys.push(r.ruleId);
  axeRules[r.ruleId] = {
    keys,
    wcag: r.wcag,
    impact: r.impact,
    bestPractice: r.bestPractice || r.wcag.length === 0,
    help: r.help,
    helpUrl: r.helpUrl,
  };
  for (const k of keys) keyImpact[k] = maxImpact(keyImpact[k], r.impact);
}

// ---- IBM Equal Access -------------------------------------------------------------------------
type IbmAct = string | Record<string, Record<string, string>>;
interface IbmSnapshotRule {
  ruleTitle: string;
  mappings: {
    guidelines: string[];
    checkpoints: string[];
    level: 'VIOLATION' | 'RECOMMENDATION' | 'INFORMATION';
    toolkitLevel: string;
    reasonCodes?: string[];
  }[];
  act: IbmAct | IbmAct[];
  helpUrl: string;
}
const ibmSnapshot = readJson<{
  source: { version: string };
  rules: Record<string, IbmSnapshotRule>;
}>('data/engines/ibm-equal-access-rules.json');
const policy = 'IBM_Accessibility';
/** IBM ships no impact; its toolkit level (1 = fix first) is the closest signal. */
const toolkitImpact: Record<string, Impact> = {
  '1': 'serious',
  '2': 'moderate',
  '3': 'moderate',
  '4': 'minor',
};
const ibmRules: Record<string, unknown> = {};
for (const [ruleId, r] of Object.entries(ibmSnapshot.rules)) {
  const checkpoints = r.mappings
    .filter((m) => m.guidelines.includes(policy))
    .map((m) => ({
      wcag: m.checkpoints.filter((c) => c in wcag),
      ...(m.reasonCodes ? { reasons: m.reasonCodes } : {}),
    }));
  const mapping = r.mappings.find((m) => m.guidelines.includes(policy));
  const override = ibmKeyOverrides[ruleId];
  const acts = override ? [...override] : Array.isArray(r.act) ? r.act : r.act ? [r.act] : [];
  // Keys of the whole rule: ACT rules it implements for every reason, then the named checks.
  const keys: string[] = [];
  // Per reason: the ACT rules W3C's outcome table says that reason fails (first) or passes (the
  // same check, stricter). A reason the table calls inapplicable, or leaves out, is not a case
  // of that ACT rule and must not carry its title (aria_accessiblename_exists fails headings and
  // table headers too, yet only its image reason is the image-name rule).
  const failing: Record<string, string[]> = {};
  const passing: Record<string, string[]> = {};
  for (const a of acts) {
    if (typeof a === 'string') {
      keys.push(a);
      continue;
    }
    for (const [actId, outcomes] of Object.entries(a)) {
      for (const [reason, outcome] of Object.entries(outcomes)) {
        if (outcome === 'fail') (failing[reason] ??= []).push(actId);
        else if (outcome === 'pass') (passing[reason] ??= []).push(actId);
      }
    }
  }
  keys.push(...(ibmExtraKeys[ruleId] ?? []));
  const ownKey = `ibm:${ruleId}`;
  const reasonKeys: Record<string, string[]> = {};
  for (const reason of new Set([...Object.keys(failing), ...Object.keys(passing)])) {
    reasonKeys[reason] = unique([...(failing[reason] ?? []), ...(passing[reason] ?? []), ...keys]);
  }
  for (const [reason, named] of Object.entries(ibmReasonKeys[ruleId] ?? {})) {
    reasonKeys[reason] = [...named];
  }
  if (keys.length === 0) keys.push(ownKey);
  // Impact of the whole rule; a reason's own keys bring their impact at normalize time.
  let impact: Impact =
    mapping?.level === 'VIOLATION' ? (toolkitImpact[mapping.toolkitLevel] ?? 'moderate') : 'minor';
  for (const k of keys) {
    if (keyImpact[k]) impact = maxImpact(impact, keyImpact[k]);
  }
  const roleKeys = ibmRoleKeys[ruleId];
  ibmRules[ruleId] = {
    title: r.ruleTitle,
    helpUrl: r.helpUrl,
    checkpoints,
    keys: unique(keys),
    ...(Object.keys(reasonKeys).length > 0 ? { reasonKeys } : {}),
    ...(roleKeys ? { roleKeys } : {}),
    impact,
  };
}

// ---- Rule keys --------------------------------------------------------------------------------
const usedKeys = new Set<string>([
  ...Object.values(axeRules).flatMap((r) => (r as { keys: string[] }).keys),
  ...Object.values(ibmRules).flatMap((r) => {
    const x = r as {
      keys: string[];
      reasonKeys?: Record<string, string[]>;
      roleKeys?: {
        roles: Record<string, string[]>;
        tags?: Record<string, string[]>;
        other?: string[];
      };
    };
    return [
      ...x.keys,
      ...Object.values(x.reasonKeys ?? {}).flat(),
      ...Object.values(x.roleKeys?.roles ?? {}).flat(),
      ...Object.values(x.roleKeys?.tags ?? {}).flat(),
      ...(x.roleKeys?.other ?? []),
    ];
  }),
  ...htmlcsKeyRows.map((r) => r.key),
  ...Object.keys(namedKeyTitles),
]);
const ruleKeys: Record<
  string,
  {
    title: string;
    act: boolean;
    impact?: Impact;
    pageLevel?: true;
    bestPractice?: true;
    corroborated?: true;
  }
> = {};
for (const key of [...usedKeys].sort()) {
  const actName = actNames.get(key);
  const axeRule =
    axeSnapshot.rules.find((r) => r.ruleId === key) ??
    axeSnapshot.rules.find((r) => (axeRules[r.ruleId] as { keys: string[] }).keys.includes(key));
  const ibmRule = key.startsWith('ibm:') ? ibmSnapshot.rules[key.slice(4)] : undefined;
  const title = actName ?? namedKeyTitles[key] ?? axeRule?.help ?? ibmRule?.ruleTitle ?? key;
  ruleKeys[key] = {
    title: title.replace(/`/g, ''),
    act: actName !== undefined || /^[0-9a-z]{6}$/.test(key),
    ...(keyImpact[key] ? { impact: keyImpact[key] } : {}),
    ...(pageLevelKeys.includes(key) ? { pageLevel: true as const } : {}),
    ...(bestPracticeKeys.includes(key) ? { bestPractice: true as const } : {}),
    ...(corroboratedKeys.includes(key) ? { corroborated: true as const } : {}),
  };
}

// ---- Precision measured on the ACT corpus -----------------------------------------------------
/**
 * Each engine alone per ACT rule, as `npm run act` measured it with this product's runtime and
 * rule keys (test/act/act-baseline.json, single-engine columns). A pair is precise when the
 * engine raised no violation of the rule on a passed or inapplicable case. Pairs the corpus did
 * not exercise (nothing detected, no false alarm) are left out and take the engine default.
 */
interface MeasuredEntry {
  detected: number;
  falseAlarms: number;
}
const actBaseline = JSON.parse(
  readFileSync(join(repoRoot, 'test', 'act', 'act-baseline.json'), 'utf8'),
) as {
  measuredAt: string;
  engineVersions: Record<string, string>;
  cases: number;
  rules: Record<
    string,
    {
      failed: number;
      passed: number;
      inapplicable: number;
      sources: Record<'axe' | 'pa11y' | 'ibm', MeasuredEntry>;
    }
  >;
};
const pairs: Record<
  string,
  { precise: boolean; falseAlarms: number; cases: number; detected: number; failedCases: number }
> = {};
for (const [ruleId, rule] of Object.entries(actBaseline.rules)) {
  for (const engine of ['axe', 'pa11y', 'ibm'] as const) {
    const { detected, falseAlarms } = rule.sources[engine];
    if (detected === 0 && falseAlarms === 0) continue;
    pairs[`${engine}:${ruleId}`] = {
      precise: falseAlarms === 0,
      falseAlarms,
      cases: rule.passed + rule.inapplicable,
      detected,
      failedCases: rule.failed,
    };
  }
}
const measuredVersions = Object.entries(actBaseline.engineVersions)
  .map(([engine, version]) => `${engine} ${version}`)
  .join(', ');
const precision = {
  source: `ACT corpus (${actBaseline.cases} cases), each engine alone at violation level, matched by rule key; ${measuredVersions}; measured ${actBaseline.measuredAt} by npm run act (test/act/act-baseline.json)`,
  /** Pairs not measured: axe and IBM are precise on the corpus overall, HTML_CodeSniffer is not. */
  defaultPrecise: { axe: true, pa11y: false, ibm: true },
  pairs,
};

// ---- Write ------------------------------------------------------------------------------------
mkdirSync(outDir, { recursive: true });
const write = (name: string, data: unknown): void => {
  writeFileSync(join(outDir, name), `${JSON.stringify(data, null, 1)}\n`);
  console.log(`wrote src/scanner/data/${name}`);
};
write('wcag.json', wcag);
write('axe-rules.json', { version: axeSnapshot.source.version, rules: axeRules });
write('ibm-rules.json', { version: ibmSnapshot.source.version, policy, rules: ibmRules });
write('rule-keys.json', ruleKeys);
write('precision.json', precision);

function unique<T>(xs: readonly T[]): T[] {
  return [...new Set(xs)];
}
