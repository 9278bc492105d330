import keyTable from '../data/rule-keys.json' with { type: 'json' };
import reportedCodes from '../engines/pa11y/reported-codes.json' with { type: 'json' };
import { ownCheckKeys } from '../engines/own-engine.js';
import { htmlcsKey } from '../engines/pa11y/rule-keys.js';
// The registry builds every engine, so every own check is registered before it is listed.
import '../engines/registry.js';

/**
 * IBM rules in the rule data that belong to no ruleset IBM runs (its own debugging and detection
 * helpers, without a title or a checkpoint): they never report a result.
 */
const silentIbmKeys: readonly string[] = ['ibm:debug_paths', 'ibm:detector_tabbable'];

/**
 * Every rule key an issue can carry: the keys the axe, IBM and HTML_CodeSniffer rules map to
 * (src/scanner/data/rule-keys.json), the keys of HTML_CodeSniffer codes no mapping row names
 * (`htmlcs:<sc>.<technique>`), and the own engines' checks. Fix guidance and titles must exist
 * for each (src/contract/rule-guidance).
 */
export function reportableRuleKeys(): string[] {
  const keys = new Set(Object.keys(keyTable));
  for (const [sc, codes] of Object.entries(reportedCodes.criteria as Record<string, string[]>)) {
    for (const code of codes) keys.add(htmlcsKey(sc, code));
  }
  for (const key of ownCheckKeys()) keys.add(key);
  for (const key of silentIbmKeys) keys.delete(key);
  return [...keys].sort();
}
