import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OwnCheckResult } from '#contract/index.js';
import { createSharedPagePool } from '../../../../test/support/browser.js';
import { startStaticServer, type TestServer } from '../../../../test/support/static-server.js';
import type { PagePool } from '../../types.js';
import { purposeOf, runAutocompleteChecks } from './autocomplete.js';

const fixtures = fileURLToPath(new URL('./__fixtures__/', import.meta.url));
let site: TestServer;
let pool: PagePool;

beforeAll(async () => {
  site = await startStaticServer(fixtures);
  pool = createSharedPagePool({ size: 1 });
});
afterAll(async () => {
  await pool?.close();
  await site?.close();
});

async function fieldResults(path: string): Promise<OwnCheckResult[]> {
  return pool.withPage(async (page) => {
    await page.goto(`${site.url}/${path}`, { waitUntil: 'load' });
    return runAutocompleteChecks(page);
  });
}

const summary = (results: OwnCheckResult[]) =>
  results
    .map(
      (r) => `${r.check} ${r.kind} ${r.wcag.join(',')} ${r.selector} ${String(r.details?.purpose)}`,
    )
    .sort();

describe('autocomplete check (1.3.5)', () => {
  it('finds personal fields without a purpose, sure only where the form says they are the user’s', async () => {
    expect(summary(await fieldResults('autocomplete-bad.html'))).toEqual(
      [
        'autocomplete-missing violation 1.3.5 #full-name name',
        'autocomplete-missing violation 1.3.5 #mail email',
        'autocomplete-missing violation 1.3.5 #phone tel',
        'autocomplete-missing violation 1.3.5 #street street-address',
        'autocomplete-missing violation 1.3.5 #zip postal-code',
        'autocomplete-missing needs-review 1.3.5 #recipient name',
        'autocomplete-missing needs-review 1.3.5 #news email',
      ].sort(),
    );
  });

  it('finds nothing where every personal field names its purpose', async () => {
    expect(summary(await fieldResults('autocomplete-good.html'))).toEqual([]);
  });

  it('reads the purpose from the type, then the label, and the name only without a label', () => {
    expect(purposeOf({ type: 'email', label: 'Work', name: '', id: '' })?.token).toBe('email');
    expect(purposeOf({ type: 'text', label: 'E-Mail-Adresse', name: '', id: '' })?.token).toBe(
      'email',
    );
    expect(purposeOf({ type: 'text', label: 'Vorname', name: '', id: '' })?.token).toBe(
      'given-name',
    );
    expect(purposeOf({ type: 'text', label: 'Code postal *', name: '', id: '' })?.token).toBe(
      'postal-code',
    );
    expect(purposeOf({ type: 'text', label: 'Order number', name: 'zip', id: '' })).toBeNull();
    expect(purposeOf({ type: 'text', label: '', name: 'last_name', id: '' })?.token).toBe(
      'family-name',
    );
  });
});
