/**
 * SARIF from a real scan of two fixture pages (one with images lacking text alternatives, one
 * that makes pa11y fail), checked three ways: against the OASIS SARIF 2.1.0 errata01 schema its
 * `$schema` names, by Microsoft's SARIF Multitool with its GitHub rules, and by the upload rules
 * GitHub's documentation states, one check per rule.
 */
import { execFile } from 'node:child_process';
import { accessSync, chmodSync, constants, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import AjvDraft04 from 'ajv-draft-04';
import addFormats from 'ajv-formats';
import type * as Sarif from 'sarif';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PageScanResult } from '#contract/index.js';
import { ruleGuidance } from '#contract/rule-guidance/index.js';
import { scanPage } from '#scanner';
import type { PagePool } from '#scanner';
import { createSharedPagePool } from '../../test/support/browser.js';
import { startStaticServer, type TestServer } from '../../test/support/static-server.js';
import { readSarifSources } from '../cli/sarif-sources.js';
import { reportModelOf, type ReportModel } from './model.js';
import { elementRegion, sourceCandidates } from './sarif-locations.js';
import { toSarif, type SarifOptions } from './sarif.js';

const repo = fileURLToPath(new URL('../../', import.meta.url));
const siteDir = 'test/fixtures/site';

const schema = JSON.parse(
  readFileSync(join(repo, 'test/data/schemas/sarif-schema-2.1.0.json'), 'utf8'),
) as object;
// CommonJS default export: under Node's ESM loader the class is the module's `default`.
const ajv = new AjvDraft04.default({ allErrors: true, strict: false });
addFormats.default(ajv);
const validate = ajv.compile(schema);

function expectValid(text: string): Sarif.Log {
  const log = JSON.parse(text) as Sarif.Log;
  validate(log);
  expect(validate.errors ?? []).toEqual([]);
  return log;
}

const multitool = join(
  repo,
  'node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool',
) as string;

/** Microsoft's validator with the SARIF and GitHub rule sets: its error and warning lines. */
async function multitoolFindings(log: string): Promise<{ errors: string[]; warnings: string[] }> {
  try {
    accessSync(multitool, constants.X_OK);
  } catch {
    chmodSync(multitool, 0o755);
  }
  const file = join(work, `log-${Math.random().toString(36).slice(2)}.sarif`);
  await writeFile(file, log);
  const output = await new Promise<string>((resolve, reject) => {
    execFile(
      multitool,
      ['validate', file, '-o', `${file}.out`, '--rule-kind', 'Sarif;Gh'],
      { timeout: 120_000, env: { ...process.env, DOTNET_CLI_TELEMETRY_OPTOUT: '1' } },
      (error, stdout, stderr) => {
        if (error && !/Done\./.test(stdout)) reject(new Error(`${error.message}\n${stderr}`));
        else resolve(`${stdout}\n${stderr}`);
      },
    );
  });
  expect(output).toContain('Analysis completed successfully');
  const lines = output.split('\n');
  return {
    errors: lines.filter((line) => /: error (SARIF|GH)\d+/.test(line)),
    warnings: lines.filter((line) => /: warning (SARIF|GH)\d+/.test(line)),
  };
}

/**
 * GitHub code scanning's upload rules, each as documented on
 * https://docs.github.com/en/code-security/reference/code-scanning/sarif-files/sarif-support
 * ("Supported properties"; a property marked required needs a value, and not the empty string).
 * Returns the rules a log breaks, by name.
 */
function githubUploadProblems(log: Sarif.Log): string[] {
  const problems = new Set<string>();
  const present = (value: unknown) => typeof value === 'string' && value !== '';
  // sarifLog object: $schema, version 2.1.0 and runs[] are required.
  if (!present(log.$schema) || log.version !== '2.1.0' || !Array.isArray(log.runs)) {
    problems.add('sarifLog: $schema, version 2.1.0, runs');
  }
  for (const run of log.runs ?? []) {
    const driver = run.tool?.driver;
    // run object: tool.driver and results[] are required; toolComponent: name and rules[].
    if (!driver || !present(driver.name) || !Array.isArray(driver.rules)) {
      problems.add('toolComponent: name, rules');
    }
    if (!Array.isArray(run.results)) problems.add('run: results');
    const rules = driver?.rules ?? [];
    for (const rule of rules) {
      // reportingDescriptor: id, shortDescription.text, fullDescription.text and help.text are
      // required; name is limited to 255 characters, the descriptions to 1024.
      if (!present(rule.id)) problems.add('reportingDescriptor: id');
      if (!present(rule.shortDescription?.text) || rule.shortDescription!.text.length > 1024) {
        problems.add('reportingDescriptor: shortDescription.text (1-1024)');
      }
      if (!present(rule.fullDescription?.text) || rule.fullDescription!.text.length > 1024) {
        problems.add('reportingDescriptor: fullDescription.text (1-1024)');
      }
      if (!present(rule.help?.text)) problems.add('reportingDescriptor: help.text');
      if (rule.name !== undefined && rule.name.length > 255) {
        problems.add('reportingDescriptor: name (at most 255)');
      }
      // defaultConfiguration.level: note, warning or error.
      const level = rule.defaultConfiguration?.level;
      if (level !== undefined && !['note', 'warning', 'error'].includes(level)) {
        problems.add('reportingDescriptor: defaultConfiguration.level');
      }
      // properties.precision and properties.problem.severity take fixed values.
      const precision = rule.properties?.precision as unknown;
      if (
        precision !== undefined &&
        !['very-high', 'high', 'medium', 'low'].includes(`${precision}`)
      ) {
        problems.add('reportingDescriptor: properties.precision');
      }
      const severity = rule.properties?.['problem.severity'] as unknown;
      if (
        severity !== undefined &&
        !['error', 'warning', 'recommendation'].includes(`${severity}`)
      ) {
        problems.add('reportingDescriptor: properties.problem.severity');
      }
      // security-severity makes a rule's results security results: not for accessibility.
      if (rule.properties?.['security-severity'] !== undefined) {
        problems.add('reportingDescriptor: security-severity on a non-security rule');
      }
    }
    for (const result of run.results ?? []) {
      // result: message.text is required; ruleId and ruleIndex name a rule of the run.
      if (!present(result.message?.text)) problems.add('result: message.text');
      if (result.ruleIndex !== undefined && rules[result.ruleIndex]?.id !== result.ruleId) {
        problems.add('result: ruleIndex names the rule of ruleId');
      }
      // partialFingerprints is required; code scanning reads only primaryLocationLineHash.
      if (!present(result.partialFingerprints?.primaryLocationLineHash)) {
        problems.add('result: partialFingerprints.primaryLocationLineHash');
      }
      // locations[]: required, at most 10; at least one is needed to display the result.
      const locations = result.locations ?? [];
      if (locations.length === 0 || locations.length > 10) problems.add('result: locations (1-10)');
      for (const location of locations) {
        // location.physicalLocation is required, with artifactLocation.uri and region.startLine
        // (startColumn, endLine and endColumn are listed as required too).
        const physical = location.physicalLocation;
        if (!physical) {
          problems.add('location: physicalLocation');
          continue;
        }
        const uri = physical.artifactLocation?.uri;
        if (!present(uri)) problems.add('physicalLocation: artifactLocation.uri');
        // "Root location for source files": a relative path is relative to the repository
        // root; an absolute URI must share the source root's scheme (file:), else the upload
        // is rejected.
        else if (/^[a-z][a-z0-9+.-]*:/i.test(uri!) && !uri!.startsWith('file:')) {
          problems.add('physicalLocation: uri relative to the repository root or file:');
        } else if (uri!.startsWith('/') || uri!.startsWith('../')) {
          problems.add('physicalLocation: uri relative to the repository root or file:');
        }
        const region = physical.region;
        if (!region || !Number.isInteger(region.startLine) || region.startLine! < 1) {
          problems.add('physicalLocation: region.startLine');
        } else if (
          !Number.isInteger(region.startColumn) ||
          !Number.isInteger(region.endLine) ||
          !Number.isInteger(region.endColumn)
        ) {
          problems.add('physicalLocation: region.startColumn, endLine, endColumn');
        }
      }
    }
  }
  return [...problems];
}

let site: TestServer;
let pool: PagePool;
let work: string;
let scans: PageScanResult[];
let models: ReportModel[];
let missingAlt: ReportModel;
let enginesFail: ReportModel;

beforeAll(async () => {
  site = await startStaticServer(join(repo, siteDir));
  pool = createSharedPagePool({ size: 2 });
  work = await mkdtemp(join(tmpdir(), 'conformly-sarif-'));
  // The first page is asked for without its extension, as a site would link it.
  scans = await Promise.all(
    [`${site.url}/missing-alt`, `${site.url}/engine-throws.html`].map((url) =>
      scanPage(pool, url, { allowPrivateNetwork: true, fingerprints: true }),
    ),
  );
  models = scans.map(reportModelOf);
  [missingAlt, enginesFail] = models as [ReportModel, ReportModel];
});

afterAll(async () => {
  await pool?.close();
  await site?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

/** The SARIF the CLI writes with `--sarif-root-url <site>/=test/fixtures/site`, from the repo root. */
async function mappedOptions(extra: SarifOptions = {}): Promise<SarifOptions> {
  const { sources, warnings } = await readSarifSources(
    scans,
    [{ url: `${site.url}/`, dir: siteDir }],
    undefined,
    repo,
  );
  expect(warnings).toEqual([]);
  return { sources, toolVersion: '0.1.0', ...extra };
}

describe('SARIF of a real scan', () => {
  it('found what the pages hold: images without alt, and pa11y failing on one page', () => {
    expect(missingAlt.issues.some((i) => i.kind === 'violation' && i.selector === '#hero')).toBe(
      true,
    );
    expect(Object.keys(enginesFail.engineErrors)).toEqual(['pa11y']);
  });

  it('is valid against the OASIS SARIF 2.1.0 errata01 schema, mapped or not', async () => {
    const mapped = expectValid(toSarif(models, await mappedOptions()));
    expect(mapped.$schema).toBe(
      'https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json',
    );
    expect((schema as { id: string }).id).toBe(mapped.$schema);
    expectValid(toSarif(models));
    expectValid(
      toSarif(models, {
        kinds: ['violation', 'needs-review', 'best-practice'],
        failures: [{ url: 'http://127.0.0.1:9/', error: 'connection refused' }],
        artifact: { uri: 'conformly.config.json', text: `{"urls": ["${site.url}/missing-alt"]}` },
      }),
    );
    expectValid(toSarif([]));
  });

  it('the schema check can fail: a region without startLine, as SARIF used to write, is rejected', async () => {
    const log = JSON.parse(toSarif(models, await mappedOptions())) as Sarif.Log;
    const region = log.runs[0]?.results?.[0]?.locations?.[0]?.physicalLocation?.region;
    expect(region?.startLine).toBeGreaterThan(0);
    delete region!.startLine;
    delete region!.startColumn;
    delete region!.endLine;
    delete region!.endColumn;
    expect(validate(log)).toBe(false);
  });

  it('has no error under Microsoft SARIF Multitool with the GitHub rules', async () => {
    const { errors, warnings } = await multitoolFindings(toSarif(models, await mappedOptions()));
    expect(errors).toEqual([]);
    // Left as warnings, on purpose: SARIF2005 asks for the tool's informationUri (conformly has
    // no public home page yet).
    const kinds = [...new Set(warnings.map((line) => /warning (\w+)/.exec(line)?.[1]))];
    expect(kinds.filter((kind) => kind !== 'SARIF2005')).toEqual([]);
  });

  it('the Multitool check can fail: SARIF without rule help and regions is reported', async () => {
    const log = JSON.parse(toSarif(models, await mappedOptions())) as Sarif.Log;
    const rule = log.runs[0]!.tool.driver.rules![0]!;
    delete rule.help;
    delete log.runs[0]!.results![0]!.locations![0]!.physicalLocation!.region!.startLine;
    const { errors } = await multitoolFindings(JSON.stringify(log));
    expect(errors.some((line) => line.includes('error GH2012'))).toBe(true);
    expect(errors.some((line) => line.includes('error SARIF1007'))).toBe(true);
  });

  it("keeps every upload rule GitHub documents when pages are mapped to the repository's files", async () => {
    const log = expectValid(toSarif(models, await mappedOptions()));
    expect(log.runs[0]?.results?.length).toBeGreaterThan(0);
    expect(githubUploadProblems(log)).toEqual([]);
  });

  it('each GitHub rule check can fail', async () => {
    const broken = (change: (log: Sarif.Log) => void) => async () => {
      const log = JSON.parse(toSarif(models, await mappedOptions())) as Sarif.Log;
      change(log);
      return githubUploadProblems(log);
    };
    const run = (log: Sarif.Log) => log.runs[0]!;
    const rule = (log: Sarif.Log) => run(log).tool.driver.rules![0]!;
    const result = (log: Sarif.Log) => run(log).results![0]!;
    const physical = (log: Sarif.Log) => result(log).locations![0]!.physicalLocation!;
    const cases: [string, (log: Sarif.Log) => void][] = [
      [
        'sarifLog: $schema, version 2.1.0, runs',
        (log) => ((log as { version: string }).version = '2.0.0'),
      ],
      ['toolComponent: name, rules', (log) => delete run(log).tool.driver.rules],
      ['run: results', (log) => delete run(log).results],
      [
        'reportingDescriptor: shortDescription.text (1-1024)',
        (log) => (rule(log).shortDescription = { text: '' }),
      ],
      [
        'reportingDescriptor: fullDescription.text (1-1024)',
        (log) => (rule(log).fullDescription = { text: 'x'.repeat(1025) }),
      ],
      ['reportingDescriptor: help.text', (log) => delete rule(log).help],
      ['reportingDescriptor: name (at most 255)', (log) => (rule(log).name = 'x'.repeat(256))],
      [
        'reportingDescriptor: properties.precision',
        (log) => (rule(log).properties!.precision = 'certain'),
      ],
      [
        'reportingDescriptor: properties.problem.severity',
        (log) => (rule(log).properties!['problem.severity'] = 'critical'),
      ],
      [
        'reportingDescriptor: security-severity on a non-security rule',
        (log) => (rule(log).properties!['security-severity'] = '9.0'),
      ],
      ['result: message.text', (log) => (result(log).message = { text: '' })],
      ['result: ruleIndex names the rule of ruleId', (log) => (result(log).ruleIndex = 9999)],
      [
        'result: partialFingerprints.primaryLocationLineHash',
        (log) => delete result(log).partialFingerprints,
      ],
      ['result: locations (1-10)', (log) => (result(log).locations = [])],
      ['location: physicalLocation', (log) => delete result(log).locations![0]!.physicalLocation],
      [
        'physicalLocation: artifactLocation.uri',
        (log) => (physical(log).artifactLocation = { uri: '' }),
      ],
      [
        'physicalLocation: uri relative to the repository root or file:',
        (log) => (physical(log).artifactLocation = { uri: `${site.url}/missing-alt` }),
      ],
      ['physicalLocation: region.startLine', (log) => delete physical(log).region!.startLine],
      [
        'physicalLocation: region.startColumn, endLine, endColumn',
        (log) => delete physical(log).region!.endColumn,
      ],
    ];
    for (const [name, change] of cases) {
      expect(await broken(change)(), name).toContain(name);
    }
  });

  it('points each result at the tag of its element in the mapped source file', async () => {
    const log = expectValid(toSarif(models, await mappedOptions()));
    const results = log.runs[0]?.results ?? [];
    const hero = results.find((r) => r.properties?.selector === '#hero');
    expect(hero, JSON.stringify(results.map((r) => r.properties?.selector))).toBeDefined();
    const physical = hero!.locations![0]!.physicalLocation!;
    // The page was asked for as /missing-alt: the file is missing-alt.html in the mapped folder.
    expect(physical.artifactLocation?.uri).toBe('test/fixtures/site/missing-alt.html');
    const source = await readFile(join(repo, siteDir, 'missing-alt.html'), 'utf8');
    const lines = source.split('\n');
    const line = lines.findIndex((text) => text.includes('<img id="hero"')) + 1;
    expect(physical.region).toMatchObject({
      startLine: line,
      startColumn: (lines[line - 1]?.indexOf('<img id="hero"') ?? 0) + 1,
      endLine: line,
    });
    const tag = lines[line - 1]!.slice(
      physical.region!.startColumn! - 1,
      physical.region!.endColumn! - 1,
    );
    expect(tag).toMatch(/^<img id="hero"[^>]*>$/);
    expect(physical.region?.snippet?.text).toContain('id="hero"');
    // The page and the element also as a logical location: page URL and CSS selector.
    expect(hero!.locations![0]!.logicalLocations).toEqual([
      { name: '#hero', fullyQualifiedName: '#hero', kind: 'element', parentIndex: 0 },
    ]);
    expect(log.runs[0]!.logicalLocations?.[0]).toEqual({
      name: '/missing-alt',
      fullyQualifiedName: `${site.url}/missing-alt`,
      kind: 'resource',
    });
    expect(hero!.message.text).toContain('/missing-alt, #hero.');
    expect(hero!.level).toBe('error');
  });

  it('without a mapping names the page only logically, or points at the file given instead', async () => {
    const plain = expectValid(toSarif(models)).runs[0]!.results!;
    const pages = expectValid(toSarif(models)).runs[0]!.logicalLocations!;
    for (const result of plain) {
      expect(result.locations?.[0]?.physicalLocation).toBeUndefined();
      const element = result.locations?.[0]?.logicalLocations?.[0];
      expect(element?.kind).toBe('element');
      expect(pages[element!.parentIndex!]?.fullyQualifiedName).toBe(result.properties?.pageUrl);
    }
    // The CLI says why code scanning will not show them.
    const { warnings } = await readSarifSources(scans, [], undefined, repo);
    expect(warnings.join('\n')).toMatch(/--sarif-root-url <url>=<folder>.*--sarif-artifact/);

    const config = `{\n  "urls": [\n    "${site.url}/missing-alt",\n    "${site.url}/engine-throws.html"\n  ]\n}\n`;
    const onConfig = expectValid(
      toSarif(models, { artifact: { uri: 'conformly.config.json', text: config } }),
    );
    expect(githubUploadProblems(onConfig)).toEqual([]);
    const failing = onConfig.runs[0]!.results!.find(
      (r) => r.properties?.pageUrl === `${site.url}/engine-throws.html`,
    );
    expect(failing?.locations?.[0]?.physicalLocation).toMatchObject({
      artifactLocation: { uri: 'conformly.config.json' },
      region: { startLine: 4, startColumn: 6 },
    });
  });

  it('gives every rule the help GitHub shows: what to fix, how, and the WCAG criteria', async () => {
    const log = expectValid(toSarif(models, await mappedOptions()));
    const rules = log.runs[0]!.tool.driver.rules!;
    const images = rules.find((rule) => rule.properties?.wcag?.includes('1.1.1'));
    expect(images).toBeDefined();
    expect(images!.shortDescription?.text).toBe(images!.name);
    expect(images!.fullDescription?.text.length).toBeGreaterThan(10);
    expect(images!.help?.text).toContain('How to fix:');
    // Our guidance for the rule, with the engines' findings below it.
    const guidance = ruleGuidance(images!.id)!;
    expect(images!.help?.text).toContain(`Who is affected: ${guidance.who}`);
    expect(images!.help?.text).toContain(`- ${guidance.fix[0]}`);
    expect(images!.help?.markdown).toContain('```html\n' + guidance.example + '\n```');
    expect(images!.help?.markdown).toContain('### What the engines found');
    expect(images!.help?.text).toContain('1.1.1 Non-text Content (Level A)');
    expect(images!.help?.markdown).toContain(
      '[1.1.1 Non-text Content (Level A)](https://www.w3.org/WAI/WCAG22/Understanding/non-text-content.html)',
    );
    expect(images!.helpUri).toMatch(/^https:\/\//);
    expect(images!.properties?.tags).toEqual(
      expect.arrayContaining(['accessibility', 'wcag-1.1.1']),
    );
    expect(images!.properties?.['problem.severity']).toBe('error');
    expect(images!.properties?.['security-severity']).toBeUndefined();
    for (const result of log.runs[0]!.results!) {
      expect(rules[result.ruleIndex!]?.id).toBe(result.ruleId);
    }
  });

  it("keeps an alert's fingerprint when its line or selector changes, and tells alike elements apart", async () => {
    const before = expectValid(toSarif(models, await mappedOptions())).runs[0]!.results!;
    const hashes = before.map((r) => r.partialFingerprints!.primaryLocationLineHash);
    expect(new Set(hashes).size).toBe(hashes.length);
    for (const hash of hashes) expect(hash).toMatch(/^[0-9a-f]{16}:\d+$/);

    // The same page a commit later: a line added above every element, selectors re-numbered.
    const { sources } = await readSarifSources(
      scans,
      [{ url: `${site.url}/`, dir: siteDir }],
      undefined,
      repo,
    );
    const shifted = new Map(
      [...sources].map(([url, source]) => [
        url,
        { ...source, text: `<!-- new -->\n${source.text}` },
      ]),
    );
    const renumbered = models.map((model) => ({
      ...model,
      issues: model.issues.map((issue) => ({
        ...issue,
        selector: issue.selector ? `body > ${issue.selector}` : '',
      })),
    }));
    const after = expectValid(toSarif(renumbered, { sources: shifted })).runs[0]!.results!;
    expect(after.map((r) => r.partialFingerprints!.primaryLocationLineHash)).toEqual(hashes);
    const line = (r: Sarif.Result) => r.locations![0]!.physicalLocation!.region!.startLine!;
    expect(after.map(line)).toEqual(before.map((r) => line(r) + 1));
  });

  it('reports the failed engine as a tool notification and levels results by impact', async () => {
    const run = expectValid(
      toSarif(models, {
        ...(await mappedOptions()),
        failures: [{ url: 'http://127.0.0.1:9/', error: 'refused' }],
      }),
    ).runs[0]!;
    const notes = run.invocations![0]!.toolExecutionNotifications!.map((n) => [
      n.level,
      n.message.text,
    ]);
    expect(notes[0]?.[0]).toBe('warning');
    expect(notes[0]?.[1]).toMatch(new RegExp(`^pa11y failed on ${site.url}/engine-throws.html: `));
    expect(notes[1]).toEqual(['error', 'Could not scan http://127.0.0.1:9/: refused.']);
    expect(run.invocations![0]!.executionSuccessful).toBe(false);
    const levels: Record<string, string> = {
      critical: 'error',
      serious: 'error',
      moderate: 'warning',
      minor: 'note',
    };
    for (const result of run.results!) {
      expect(result.level).toBe(levels[result.properties!.impact as string]);
    }
  });
});

describe('page URLs to repository files', () => {
  const roots = [
    { url: 'http://localhost:3000/docs/', dir: 'site/docs' },
    { url: 'http://localhost:3000/', dir: 'public' },
  ];
  it.each([
    ['http://localhost:3000/', ['public/index.html']],
    ['http://localhost:3000/about/', ['public/about/index.html']],
    ['http://localhost:3000/a.html?x=1#top', ['public/a.html']],
    [
      'http://localhost:3000/pricing',
      ['public/pricing.html', 'public/pricing/index.html', 'public/pricing'],
    ],
    ['http://localhost:3000/docs', ['site/docs/index.html']],
    ['http://localhost:3000/docs/intro.html', ['site/docs/intro.html']],
    ['http://localhost:3000/my%20page.html', ['public/my page.html']],
    ['http://127.0.0.1:3000/', []],
    ['https://localhost:3000/', []],
  ])('%s', (url, expected) => {
    expect(sourceCandidates([url], roots)).toEqual(expected);
  });

  it("finds an element's tag whatever the quoting, spacing and self-closing slash", () => {
    const source = `<!doctype html>\n<p>\n  <IMG\n    src='a.png'   alt=""\n    width=40 />\n</p>\n`;
    expect(elementRegion(source, '<img src="a.png" alt="" width="40">')).toEqual({
      startLine: 3,
      startColumn: 3,
      endLine: 5,
      endColumn: 16,
    });
    expect(elementRegion(source, '<img src="a.png" alt="" wid...')).toMatchObject({
      startLine: 3,
    });
    expect(elementRegion(source, '<img src="b.png">')).toBeUndefined();
  });
});
