import { htmlcsDynamicKeyRows, htmlcsKeyRows } from '../../analysis/rule-key-tables.js';

const sortedRows = [...htmlcsKeyRows].sort((a, b) => b.prefix.length - a.prefix.length);

/**
 * Key of an HTML_CodeSniffer technique part (`H37`, `H91.InputText.Name`, `G18.Fail`) under a
 * success criterion. Unmapped techniques key on SC plus first technique, so the same sniff still
 * dedupes with itself.
 */
export function htmlcsKey(sc: string, technique: string): string {
  for (const row of sortedRows) {
    if (row.sc && row.sc !== sc) continue;
    if (
      technique === row.prefix ||
      technique.startsWith(`${row.prefix}.`) ||
      technique.startsWith(`${row.prefix},`)
    ) {
      return row.key;
    }
  }
  for (const row of htmlcsDynamicKeyRows) {
    if (row.pattern.test(technique)) return row.key;
  }
  const first = technique.split(/[.,]/)[0] ?? technique;
  return `htmlcs:${sc}.${first || 'manual'}`;
}
