import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseTargets } from '../../../test/support/db.js';
import { emptyRaw, specRaw, type PageScanResult, type RawByEngine } from '#contract/index.js';
import type { Database } from '../client.js';
import { migrationsFolder } from '../migrate.js';
import { findScan, insertScan, markRunning, storeResult } from './scans.js';

/** Raw engine output as engines produce it: nested nulls and extra fields must survive as is. */
const raw: RawByEngine = {
  axe: {
    ...emptyRaw.axe(null),
    violations: [
      {
        id: 'image-alt',
        impact: 'critical',
        description: 'Images must have alternative text',
        helpUrl: 'https://dequeuniversity.com/rules/axe/4.10/image-alt',
        nodes: [{ target: ['img'], html: '<img src="a.png">', any: [], none: null }],
        tags: ['wcag2a'],
      },
    ],
  },
  pa11y: {
    issues: [
      {
        type: 'error',
        code: 'WCAG2AA.Principle1.Guideline1_1.1_1_1.H37',
        message: 'Img element missing an alt attribute.',
        context: null,
        selector: 'html > body > img',
        runnerExtras: {},
      },
    ],
    documentTitle: 'A page',
    error: null,
  },
  ibm: emptyRaw.ibm('timed out after 30000 ms'),
};

const result: PageScanResult = {
  url: 'https://example.org/',
  finalUrl: 'https://example.org/',
  title: 'A page',
  startedAt: '2026-11-24T00:00:00.000Z',
  finishedAt: '2026-11-24T00:00:01.000Z',
  engines: ['axe', 'pa11y', 'ibm'],
  engineVersions: { axe: '4.10.3' },
  engineErrors: { ibm: 'timed out after 30000 ms' },
  processingTimes: { load: 10, axe: 20, pa11y: 30, ibm: 30000, total: 30060 },
  issues: [],
  summary: {
    violations: { critical: 0, serious: 0, moderate: 0, minor: 0 },
    totalViolations: 0,
    needsReview: 0,
    bestPractice: 0,
    byEngine: { axe: 0, pa11y: 0, ibm: 0 },
    corroborated: 0,
  },
  score: { value: 100, label: 'Excellent' },
  screenshots: [],
  raw: {
    meta: {
      url: 'https://example.org/',
      scanId: 'scan',
      timestamp: '2026-11-24T00:00:00.000Z',
      processingTimes: { load: 10, axe: 20, pa11y: 30, ibm: 30000, total: 30060 },
    },
    ...specRaw(raw),
  },
};

describe.each(databaseTargets)('the scan store on $name', ({ open }) => {
  let database: Database;
  beforeAll(async () => {
    database = await open();
  });
  afterAll(async () => {
    await database?.close();
  });

  it('gives back the raw output of a stored scan exactly as the engines produced it', async () => {
    const scan = await insertScan(database.db, { url: result.url, domain: 'example.org' });
    expect(await markRunning(database.db, scan.id, scan.id, 0)).toBe(true);
    expect(await storeResult(database.db, scan.id, result, 'Summary')).toBe(true);

    const stored = await findScan(database.db, scan.id, { raw: true });
    expect(stored?.rawOutput).toEqual(raw);
    expect(specRaw(stored!.rawOutput as RawByEngine)).toEqual({
      axeRaw: result.raw.axeRaw,
      pa11yRaw: result.raw.pa11yRaw,
      ibmRaw: result.raw.ibmRaw,
    });
    // Without raw, the rest of the row is the same and the raw output is left out.
    const light = await findScan(database.db, scan.id, { raw: false });
    expect(light).toEqual({ ...stored, rawOutput: null });
  });
});

describe('the migration to raw output keyed by engine id', () => {
  let folder: string;
  let client: PGlite;
  beforeAll(async () => {
    // The migrations as they were before raw output was keyed by engine id.
    folder = await mkdtemp(join(tmpdir(), 'conformly-migrations-'));
    await cp(migrationsFolder, folder, { recursive: true });
    const journalPath = join(folder, 'meta', '_journal.json');
    const journal = JSON.parse(await readFile(journalPath, 'utf8')) as {
      entries: { tag: string }[];
    };
    const keyed = journal.entries.findIndex((entry) => entry.tag.includes('raw_output_by_engine'));
    expect(keyed).toBeGreaterThan(0);
    journal.entries = journal.entries.slice(0, keyed);
    await writeFile(journalPath, JSON.stringify(journal));
    client = new PGlite();
  });
  afterAll(async () => {
    await client?.close();
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  it("keeps every stored scan's raw output, under its engine's id", async () => {
    const options = { migrationsTable: '__drizzle_migrations', migrationsSchema: 'drizzle' };
    const db = drizzle({ client });
    await migrate(db, { ...options, migrationsFolder: folder });
    const insert = (id: string, axe: unknown, pa11y: unknown, ibm: unknown) =>
      client.query(
        `insert into scans (id, url, domain, status, axe_data, pa11y_data, ibm_data)
         values ($1, 'https://example.org/', 'example.org', 'completed', $2, $3, $4)`,
        [id, ...[axe, pa11y, ibm].map((value) => (value === null ? null : JSON.stringify(value)))],
      );
    const whole = '00000000-0000-4000-8000-000000000001';
    const axeOnly = '00000000-0000-4000-8000-000000000002';
    const none = '00000000-0000-4000-8000-000000000003';
    await insert(whole, raw.axe, raw.pa11y, raw.ibm);
    await insert(axeOnly, raw.axe, null, null);
    await insert(none, null, null, null);

    await migrate(db, { ...options, migrationsFolder });

    const { rows } = await client.query<{ id: string; raw_output: unknown }>(
      'select id, raw_output from scans order by id',
    );
    expect(rows).toEqual([
      { id: whole, raw_output: raw },
      { id: axeOnly, raw_output: { axe: raw.axe } },
      { id: none, raw_output: null },
    ]);
  });
});
