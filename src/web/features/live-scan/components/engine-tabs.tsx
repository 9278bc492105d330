import type { ScanResults } from '#contract/scan-api.js';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../../components/ui/tabs';
import { cn } from '../../../lib/cn';
import type { LiveScanTheme } from '../themes';

/** Each engine's own findings are listed up to this many, then counted. */
const shownPerEngine = 10;

interface EngineRow {
  key: string;
  title: string;
  detail: string;
  tag: string;
}

interface EngineTab {
  id: 'axe' | 'pa11y' | 'ibm';
  label: string;
  empty: string;
  rows(results: ScanResults): EngineRow[];
  error(results: ScanResults): string | null | undefined;
}

/** Spec §2 (multi-page audit): the engines' own empty texts. */
const engineTabs: EngineTab[] = [
  {
    id: 'axe',
    label: 'axe',
    empty: 'No accessibility violations found by Axe',
    rows: (r) =>
      (r.axeResults?.violations ?? []).map((v) => ({
        key: v.id,
        title: v.id,
        detail: `${v.description} (${v.nodes.length} elements)`,
        tag: v.impact ?? 'unknown',
      })),
    error: (r) => r.axeResults?.error,
  },
  {
    id: 'pa11y',
    label: 'Pa11y',
    empty: 'No accessibility issues found by Pa11y',
    rows: (r) =>
      (r.pa11yResults?.issues ?? []).map((issue, index) => ({
        key: `${index}-${issue.code}`,
        title: issue.code,
        detail: `${issue.message}${issue.selector ? ` (${issue.selector})` : ''}`,
        tag: issue.type,
      })),
    error: (r) => r.pa11yResults?.error,
  },
  {
    id: 'ibm',
    label: 'IBM',
    empty: 'No accessibility issues found by IBM Equal Access',
    rows: (r) =>
      (r.ibmResults?.report.results ?? []).map((result, index) => ({
        key: `${index}-${result.ruleId}`,
        title: result.ruleId || result.messageCode,
        detail: `${result.message} (${result.path.dom})`,
        tag: result.level,
      })),
    error: (r) => r.ibmResults?.error,
  },
];

/** The professional theme's per-engine tabs, each named with its engine's count. */
export function EngineTabs({ results, theme }: { results: ScanResults; theme: LiveScanTheme }) {
  const { look } = theme;
  return (
    <Tabs defaultValue="axe">
      <TabsList aria-label="Engines">
        {engineTabs.map((tab) => (
          <TabsTrigger key={tab.id} value={tab.id} className={look.focus}>
            {tab.label}
            <span className={cn('rounded-full px-2 text-xs', look.badge)}>
              {tab.rows(results).length}
            </span>
          </TabsTrigger>
        ))}
      </TabsList>
      {engineTabs.map((tab) => {
        const rows = tab.rows(results);
        const error = tab.error(results);
        return (
          <TabsContent key={tab.id} value={tab.id} className={look.focus}>
            {error && <p className={cn('mb-2 text-sm', look.dangerTitle)}>{error}</p>}
            {rows.length === 0 ? (
              <p className={look.muted}>{tab.empty}</p>
            ) : (
              <ul className="grid gap-2">
                {rows.slice(0, shownPerEngine).map((row) => (
                  <li key={row.key} className="text-sm">
                    <span className={cn('mr-2 rounded px-2 py-0.5 text-xs', look.badge)}>
                      {row.tag}
                    </span>
                    <span className="font-semibold break-all">{row.title}</span>
                    <span className={cn('block break-words', look.muted)}>{row.detail}</span>
                  </li>
                ))}
                {rows.length > shownPerEngine && (
                  <li className={cn('text-sm', look.muted)}>
                    ... and {rows.length - shownPerEngine} more
                  </li>
                )}
              </ul>
            )}
          </TabsContent>
        );
      })}
    </Tabs>
  );
}
