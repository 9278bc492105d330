import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The tables of a stored scan, an audit and a monitored domain are queried only by their stores
 * (src/db/stores): a module elsewhere that imports one of those tables from the schema, or names
 * one in raw SQL, is reported. The schema, its migrations and tests are exempt.
 */

const srcRoot = join(import.meta.dirname, '..', '..');

const storeTables = [
  'scans',
  'issues',
  'artifacts',
  'auditSessions',
  'pageScans',
  'engineResults',
  'domains',
  'domainHistory',
];
const storeTableNames = [
  'scans',
  'issues',
  'artifacts',
  'audit_sessions',
  'page_scans',
  'engine_results',
  'domains',
  'domain_history',
];

const exempt = (path: string) =>
  path.startsWith('db/stores/') ||
  path.startsWith('db/schema/') ||
  path.startsWith('db/migrations/') ||
  path.startsWith('web/') ||
  path.endsWith('.test.ts');

async function sourceFiles(): Promise<string[]> {
  const names = await readdir(srcRoot, { recursive: true });
  return names
    .map(String)
    .filter((name) => /\.tsx?$/.test(name))
    .filter((name) => !exempt(name.split('\\').join('/')));
}

const schemaImport =
  /import\s*\{([^}]*)\}\s*from\s*'(?:[./]*|#)(?:db\/)?schema(?:\/[\w-]+)?(?:\/index)?\.js'/g;
const rawSql = new RegExp(
  `\\b(?:from|into|update|join)\\s+"?(?:${storeTableNames.join('|')})"?\\b(?!-)`,
  'gi',
);

/** What a module does with the store-owned tables: the table names it imports or queries. */
export function storeTableUses(text: string): string[] {
  const uses: string[] = [];
  for (const match of text.matchAll(schemaImport)) {
    for (const entry of match[1]!.split(',')) {
      const name = entry.trim();
      if (!name.startsWith('type ') && storeTables.includes(name)) uses.push(name);
    }
  }
  for (const line of text.split('\n')) {
    // Prose in comments may say "from scans"; SQL is in strings and template literals.
    if (/^\s*(\*|\/\/|\/\*)/.test(line)) continue;
    for (const match of line.matchAll(rawSql)) uses.push(match[0]);
  }
  return uses;
}

describe('store boundaries', () => {
  it('finds a table imported from the schema and a table named in SQL', () => {
    expect(
      storeTableUses(
        "import { domains, users, type ScanStage } from '../../db/schema/index.js';\n" +
          'await db.executeSql(`update scans set status = $1`);',
      ),
    ).toEqual(['domains', 'update scans']);
    expect(storeTableUses("import { users } from '../db/schema/index.js';")).toEqual([]);
    expect(storeTableUses("import { scans, users } from '#db/schema/index.js';")).toEqual([
      'scans',
    ]);
  });

  it('leaves the tables of scans, audits and domains to src/db/stores', async () => {
    const offenders: string[] = [];
    for (const file of await sourceFiles()) {
      const uses = storeTableUses(await readFile(join(srcRoot, file), 'utf8'));
      if (uses.length > 0) offenders.push(`${relative(srcRoot, join(srcRoot, file))}: ${uses}`);
    }
    expect(offenders).toEqual([]);
  });
});
