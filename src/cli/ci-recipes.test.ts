/**
 * The CI recipes of docs/ci.md, as users copy them: the workflow files are parsed and their shape
 * checked, then the exact `npx conformly` commands they list run through the package bin against
 * the bakery fixture site, and the SARIF and JUnit files they write are read back.
 */
import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import AjvDraft04 from 'ajv-draft-04';
import addFormats from 'ajv-formats';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { startStaticServer, type TestServer } from '../../test/support/static-server.js';
import { ConformlyConfig } from './config/schema.js';

const repo = new URL('../../', import.meta.url);
const bin = fileURLToPath(new URL('bin/conformly.js', repo));
const docs = (path: string) => readFile(new URL(`docs/${path}`, repo), 'utf8');

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a recipe's command line as written, with the package bin standing in for `npx conformly`. */
function runRecipeCommand(command: string, cwd: string): Promise<Run> {
  const words = command.trim().split(/\s+/);
  expect(words.slice(0, 2)).toEqual(['npx', 'conformly']);
  expect(command).not.toMatch(/["'`$\\|&;<>]/); // nothing a shell would read differently
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [bin, ...words.slice(2)],
      { cwd, timeout: 120_000, env: { ...process.env, NO_COLOR: '1' } },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** The conformly command lines of a list of shell steps. */
function conformlyCommands(scripts: readonly string[]): string[] {
  return scripts
    .flatMap((script) => script.split('\n'))
    .map((line) => line.trim())
    .filter((line) => line.startsWith('npx conformly '));
}

function optionValue(command: string, name: string): string | undefined {
  const words = command.split(/\s+/);
  const index = words.indexOf(name);
  return index >= 0 ? words[index + 1] : undefined;
}

interface Step {
  name?: string;
  uses?: string;
  run?: string;
  if?: string;
  with?: Record<string, unknown>;
}

let site: TestServer;
let work: string;

beforeAll(async () => {
  site = await startStaticServer(fileURLToPath(new URL('test/fixtures/cli/site/', repo)));
  work = await mkdtemp(join(tmpdir(), 'conformly-recipes-'));
});

afterAll(async () => {
  await site?.close();
  await rm(work, { recursive: true, force: true });
});

/**
 * A project folder with its conformly.config.json: the bakery's pages, its origin allowed, and
 * axe alone (what is tested here is the recipe, not the engines); the site's files in public/.
 */
async function projectFolder(name: string): Promise<string> {
  const folder = join(work, name);
  await mkdir(folder);
  await cp(fileURLToPath(new URL('test/fixtures/cli/site/', repo)), join(folder, 'public'), {
    recursive: true,
  });
  await writeFile(
    join(folder, 'conformly.config.json'),
    JSON.stringify({
      urls: [`${site.url}/`, `${site.url}/menu.html`],
      allowOrigins: [site.url],
      defaults: { engines: ['axe'] },
    }),
  );
  return folder;
}

describe('docs/ci.md', () => {
  it('links both recipe files', async () => {
    const text = await docs('ci.md');
    expect(text).toContain('](ci/github-actions.yml)');
    expect(text).toContain('](ci/gitlab-ci.yml)');
  });

  it("shows config files conformly accepts (the recipes' and the README's)", async () => {
    const recipe = JSON.parse(await docs('ci/conformly.config.json')) as unknown;
    expect(ConformlyConfig.safeParse(recipe).error).toBeUndefined();
    const readme = await readFile(new URL('README.md', repo), 'utf8');
    const section = readme.slice(readme.indexOf('### Config file'));
    const example = /```json\n([\s\S]*?)\n```/.exec(section)?.[1];
    expect(ConformlyConfig.safeParse(JSON.parse(example ?? 'null')).error).toBeUndefined();
  });

  it('GitHub Actions: a workflow that scans and uploads the SARIF it wrote to code scanning', async () => {
    const workflow = parse(await docs('ci/github-actions.yml')) as {
      on: Record<string, unknown>;
      permissions: Record<string, string>;
      jobs: Record<string, { 'runs-on': string; steps: Step[] }>;
    };
    expect(Object.keys(workflow.on)).toEqual(expect.arrayContaining(['push', 'pull_request']));
    expect(workflow.permissions['security-events']).toBe('write');
    const jobs = Object.values(workflow.jobs);
    expect(jobs).toHaveLength(1);
    const steps = jobs[0]!.steps;
    expect(steps.length).toBeGreaterThan(0);
    const commands = conformlyCommands(steps.flatMap((step) => (step.run ? [step.run] : [])));
    expect(commands).toHaveLength(1);
    const command = commands[0]!;
    expect(optionValue(command, '--format')).toBe('sarif');
    const sarifFile = optionValue(command, '--output');

    const scanStep = steps.findIndex((step) => step.run?.includes(command));
    const upload = steps.findIndex((step) =>
      step.uses?.startsWith('github/codeql-action/upload-sarif@'),
    );
    expect(upload).toBeGreaterThan(scanStep);
    expect(steps[upload]?.with?.sarif_file).toBe(sarifFile);
    // The scan step fails on violations; the upload must still run.
    expect(steps[upload]?.if).toMatch(/always\(\)|!cancelled\(\)/);

    // The recipe's site runs on localhost:3000; the fixture site answers elsewhere.
    expect(optionValue(command, '--sarif-root-url')).toBe('http://localhost:3000/=public');
    const folder = await projectFolder('github');
    const run = await runRecipeCommand(command.replace('http://localhost:3000', site.url), folder);
    expect(run.stderr).not.toMatch(/\n\s+at /);
    // The menu's loaf picture has no text alternative: critical, so --fail-on serious fails.
    expect(run.code).toBe(1);
    const log = JSON.parse(await readFile(join(folder, sarifFile!), 'utf8')) as {
      runs: {
        results: {
          level: string;
          partialFingerprints: Record<string, string>;
          locations: {
            physicalLocation: {
              artifactLocation: { uri: string };
              region: { startLine: number; snippet: { text: string } };
            };
            logicalLocations: { fullyQualifiedName?: string }[];
          }[];
        }[];
      }[];
    };
    // The OASIS schema its $schema names (test/data/schemas/README.md).
    const ajv = new AjvDraft04.default({ strict: false });
    addFormats.default(ajv);
    const schema = JSON.parse(
      await readFile(new URL('test/data/schemas/sarif-schema-2.1.0.json', repo), 'utf8'),
    ) as object;
    expect(ajv.validate(schema, log), JSON.stringify(ajv.errors)).toBe(true);
    const loaf = log.runs[0]?.results.find(
      (result) => result.locations[0]?.logicalLocations[0]?.fullyQualifiedName === '#loaf',
    );
    expect(loaf?.level).toBe('error');
    // In the repository: public/menu.html, at the line of the picture's tag.
    const physical = loaf?.locations[0]?.physicalLocation;
    expect(physical?.artifactLocation.uri).toBe('public/menu.html');
    const menu = (await readFile(join(folder, 'public/menu.html'), 'utf8')).split('\n');
    expect(physical?.region.startLine).toBe(
      menu.findIndex((line) => line.includes('<img id="loaf"')) + 1,
    );
    expect(physical?.region.snippet.text).toContain('id="loaf"');
    expect(loaf?.partialFingerprints['conformlyElement/v1']).toMatch(
      /^\/menu\.html \S+ main > img#loaf ~[0-9a-f]{8}$/,
    );
    // The artifact step's folder: one report per page and the index.
    const reportDir = optionValue(command, '--output-dir')!;
    expect((await readdir(join(folder, reportDir))).sort()).toEqual([
      'index.html',
      'page-1-127-0-0-1.html',
      'page-2-127-0-0-1-menu-html.html',
    ]);
    const artifact = steps.find((step) => step.uses?.startsWith('actions/upload-artifact@'));
    expect(String(artifact?.with?.path).replace(/\/$/, '')).toBe(reportDir);
  });

  it('GitLab CI: a job whose JUnit report is the file the scan wrote', async () => {
    const config = parse(await docs('ci/gitlab-ci.yml')) as Record<
      string,
      {
        script: string[];
        artifacts: { when: string; reports: { junit: string }; paths: string[] };
      }
    >;
    const job = config.accessibility!;
    const commands = conformlyCommands(job.script);
    expect(commands).toHaveLength(1);
    const command = commands[0]!;
    expect(optionValue(command, '--format')).toBe('junit');
    expect(job.artifacts.reports.junit).toBe(optionValue(command, '--output'));
    expect(job.artifacts.when).toBe('always');

    const folder = await projectFolder('gitlab');
    const run = await runRecipeCommand(command, folder);
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(run.code).toBe(1);
    const xml = await readFile(join(folder, job.artifacts.reports.junit), 'utf8');
    const parsed = new XMLParser({
      ignoreAttributes: false,
      attributeNamePrefix: '',
      isArray: (name) => name === 'testsuite' || name === 'testcase',
    }).parse(xml) as {
      testsuites: {
        testsuite: { name: string; testcase: { failure?: { '#text': string } }[] }[];
      };
    };
    const suites = parsed.testsuites.testsuite;
    expect(suites.map((suite) => suite.name)).toEqual([`${site.url}/`, `${site.url}/menu.html`]);
    const failures = suites[1]?.testcase.flatMap((test) =>
      test.failure ? [test.failure['#text']] : [],
    );
    expect(failures?.join('\n')).toContain('#loaf');
    for (const path of job.artifacts.paths) {
      expect(await readdir(join(folder, path))).toContain('index.html');
    }
  });
});
