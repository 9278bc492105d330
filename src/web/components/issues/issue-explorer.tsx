import { ChevronDown, ExternalLink } from 'lucide-react';
import { useMemo, useState, type ReactNode } from 'react';
import { engineIds, impacts } from '#contract/engine-ids.js';
import type { EngineId, FindingKind } from '#contract/finding.js';
import type { ReportIssue, ScanComparison } from '#contract/scan-api.js';
import { engineNames, formatDate } from '#contract/vocabulary.js';
import { cn } from '../../lib/cn';
import { Checkbox } from '../ui/checkbox';
import { Input } from '../ui/input';
import { Label } from '../ui/label';
import { NativeSelect } from '../ui/native-select';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../ui/tabs';
import { ElementScreenshot } from './element-screenshot';
import { Heading, RuleGuidancePanel, useRuleGuidance } from './rule-guidance';
import {
  countByKind,
  criteriaOf,
  groupByRule,
  issuesOfKind,
  kindOrder,
  kindTabLabels,
  manualChecksOf,
  matchesFilters,
  noFilters,
  type IssueFilters,
  type RuleGroup,
} from './issue-filters';

export const impactClasses: Record<string, string> = {
  critical: 'bg-red-100 text-red-900',
  serious: 'bg-orange-100 text-orange-900',
  moderate: 'bg-amber-100 text-amber-900',
  minor: 'bg-slate-100 text-slate-900',
};

const kindIntro: Record<FindingKind, string> = {
  violation:
    'Failures of a WCAG A or AA success criterion that an engine is sure of. They lower the score.',
  'needs-review':
    'The engines could not decide these; a person has to check each one. They do not lower the score.',
  'best-practice':
    'Problems no WCAG success criterion requires fixing, worth fixing for usability. They do not lower the score.',
};

export interface IssueExplorerProps {
  issues: readonly ReportIssue[];
  /** The page screenshot the element outlines are drawn on (the scan's full-page shot). */
  screenshotUrl?: string | null;
  /** New and fixed issues against the previous scan of the same page, when there is one. */
  comparison?: ScanComparison | null;
  /** Prefix for ids and the heading level of the groups, so a page can hold several explorers. */
  idPrefix?: string;
  headingLevel?: 3 | 4;
  /**
   * What the reader may do with one element's issue, shown under it (a monitored domain's
   * owner: its triage state and sending it to GitHub); nothing when absent or null.
   */
  elementActions?: ((issue: ReportIssue) => ReactNode) | undefined;
}

/**
 * The issues of one scanned page, as the report, the public audit page and multi-page results
 * show them: tabs per kind whose counts are the summary's, filters (impact, WCAG criterion and
 * level, engine, found by two or more engines, new), a search, and groups by rule that expand to
 * the explanation, how to fix it, each failing element with its HTML and its outline on the
 * screenshot, and links to the engine's help and WCAG's Understanding pages.
 */
export function IssueExplorer({
  issues,
  screenshotUrl,
  comparison,
  idPrefix = 'issues',
  headingLevel = 3,
  elementActions,
}: IssueExplorerProps) {
  const [filters, setFilters] = useState<IssueFilters>(noFilters);
  const [kind, setKind] = useState<FindingKind>('violation');
  const counts = useMemo(() => countByKind(issues), [issues]);
  const manualChecks = useMemo(() => manualChecksOf(issues), [issues]);
  const criteria = useMemo(() => criteriaOf(issues), [issues]);
  const enginesSeen = useMemo(
    () => engineIds.filter((engine) => issues.some((issue) => issue.engines.includes(engine))),
    [issues],
  );
  const set = <K extends keyof IssueFilters>(key: K, value: IssueFilters[K]) =>
    setFilters((current) => ({ ...current, [key]: value }));

  return (
    <div className="grid gap-4">
      {comparison && <ComparisonNote comparison={comparison} />}
      <IssueFilterBar
        idPrefix={idPrefix}
        filters={filters}
        criteria={criteria}
        engines={enginesSeen}
        hasComparison={Boolean(comparison)}
        set={set}
        reset={() => setFilters(noFilters)}
      />
      <Tabs value={kind} onValueChange={(value) => setKind(value as FindingKind)}>
        <TabsList aria-label="Kinds of issue">
          {kindOrder.map((value) => (
            <TabsTrigger key={value} value={value}>
              {kindTabLabels[value]}
              <span className="rounded-full bg-slate-200 px-2 text-xs">{counts[value]}</span>
            </TabsTrigger>
          ))}
        </TabsList>
        {kindOrder.map((value) => (
          <TabsContent key={value} value={value}>
            <KindPanel
              kind={value}
              issues={issuesOfKind(issues, value)}
              filters={filters}
              screenshotUrl={screenshotUrl ?? null}
              idPrefix={`${idPrefix}-${value}`}
              headingLevel={headingLevel}
              elementActions={elementActions}
            />
          </TabsContent>
        ))}
      </Tabs>
      {manualChecks.length > 0 && (
        <ManualChecks
          issues={manualChecks}
          filters={filters}
          screenshotUrl={screenshotUrl ?? null}
          idPrefix={`${idPrefix}-manual`}
          headingLevel={headingLevel}
        />
      )}
      {comparison && comparison.fixed.length > 0 && (
        <section aria-labelledby={`${idPrefix}-fixed`} className="mt-2">
          <Heading level={headingLevel} id={`${idPrefix}-fixed`} className="font-semibold">
            Fixed since the previous scan ({comparison.fixed.length})
          </Heading>
          <ul className="mt-2 grid gap-1 text-sm">
            {comparison.fixed.map((issue) => (
              <li key={issue.id} className="flex flex-wrap gap-2">
                <span className="rounded bg-emerald-100 px-2 text-xs font-semibold text-emerald-900 uppercase">
                  Fixed
                </span>
                <span className="font-semibold">{issue.title}</span>
                <code className="break-all text-slate-700">{issue.selector || 'whole page'}</code>
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}

/**
 * Routine manual checks (sensory words, quote marks, a stylesheet's colours...), which engines
 * raise on almost any page: collapsed under one disclosure, counted apart from needs-review.
 */
function ManualChecks({
  issues,
  filters,
  screenshotUrl,
  idPrefix,
  headingLevel,
}: {
  issues: ReportIssue[];
  filters: IssueFilters;
  screenshotUrl: string | null;
  idPrefix: string;
  headingLevel: 3 | 4;
}) {
  const [open, setOpen] = useState(false);
  const panelId = `${idPrefix}-panel`;
  const shown = issues.filter((issue) => matchesFilters(issue, filters));
  const groups = groupByRule(shown);
  return (
    <section aria-labelledby={`${idPrefix}-heading`} className="rounded-lg border border-slate-200">
      <Heading level={headingLevel} id={`${idPrefix}-heading`} className="m-0">
        <button
          type="button"
          aria-expanded={open}
          aria-controls={panelId}
          onClick={() => setOpen((value) => !value)}
          className="flex w-full items-center gap-2 rounded-lg p-4 text-left font-semibold focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
        >
          <span className="flex-1">Manual checks</span>
          <span className="rounded-full bg-slate-200 px-2 text-xs">{issues.length}</span>
          <ChevronDown
            aria-hidden="true"
            className={cn('h-5 w-5 shrink-0 transition-transform', open && 'rotate-180')}
          />
        </button>
      </Heading>
      <div id={panelId} hidden={!open} className="border-t border-slate-200 p-4">
        <p className="text-sm text-slate-700">
          Routine checks the engines ask for on almost every page, such as instructions that rely on
          shape or position, quotation markup and the use of colour. They are rarely a problem and
          do not lower the score; go through them once when you review the page by hand.
        </p>
        {groups.length === 0 ? (
          <p className="mt-3 text-slate-700">No manual check matches these filters.</p>
        ) : (
          <ul className="mt-3 grid gap-3">
            {groups.map((group) => (
              <li key={group.ruleKey}>
                <RuleGroupCard
                  group={group}
                  screenshotUrl={screenshotUrl}
                  id={`${idPrefix}-${group.ruleKey.replace(/[^a-zA-Z0-9_-]/g, '_')}`}
                  headingLevel={4}
                />
              </li>
            ))}
          </ul>
        )}
      </div>
    </section>
  );
}

function ComparisonNote({ comparison }: { comparison: ScanComparison }) {
  return (
    <p className="rounded-md border border-slate-300 bg-slate-50 p-3 text-sm">
      Compared with the previous scan of this page on {formatDate(comparison.previousDate)}:{' '}
      <strong>{comparison.newCount}</strong> new violation{comparison.newCount === 1 ? '' : 's'},{' '}
      <strong>{comparison.fixed.length}</strong> fixed.
    </p>
  );
}

function IssueFilterBar({
  idPrefix,
  filters,
  criteria,
  engines,
  hasComparison,
  set,
  reset,
}: {
  idPrefix: string;
  filters: IssueFilters;
  criteria: string[];
  engines: EngineId[];
  hasComparison: boolean;
  set: <K extends keyof IssueFilters>(key: K, value: IssueFilters[K]) => void;
  reset: () => void;
}) {
  const id = (name: string) => `${idPrefix}-filter-${name}`;
  return (
    <fieldset className="grid gap-3 rounded-lg border border-slate-200 p-4">
      <legend className="px-1 text-sm font-semibold">Filter issues</legend>
      <div className="grid gap-1">
        <Label htmlFor={id('search')}>Search</Label>
        <Input
          id={id('search')}
          type="search"
          placeholder="Text, element, rule or criterion"
          value={filters.search}
          onChange={(event) => set('search', event.target.value)}
        />
      </div>
      <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
        <div className="grid gap-1">
          <Label htmlFor={id('impact')}>Impact</Label>
          <NativeSelect
            id={id('impact')}
            value={filters.impact}
            onChange={(event) => set('impact', event.target.value as IssueFilters['impact'])}
          >
            <option value="all">All impacts</option>
            {impacts.map((impact) => (
              <option key={impact} value={impact}>
                {impact.charAt(0).toUpperCase() + impact.slice(1)}
              </option>
            ))}
          </NativeSelect>
        </div>
        <div className="grid gap-1">
          <Label htmlFor={id('criterion')}>WCAG criterion</Label>
          <NativeSelect
            id={id('criterion')}
            value={filters.criterion}
            onChange={(event) => set('criterion', event.target.value)}
          >
            <option value="all">All criteria</option>
            {criteria.map((sc) => (
              <option key={sc} value={sc}>
                {sc}
              </option>
            ))}
          </NativeSelect>
        </div>
        <div className="grid gap-1">
          <Label htmlFor={id('level')}>WCAG level</Label>
          <NativeSelect
            id={id('level')}
            value={filters.level}
            onChange={(event) => set('level', event.target.value as IssueFilters['level'])}
          >
            <option value="all">All levels</option>
            <option value="A">A</option>
            <option value="AA">AA</option>
            <option value="AAA">AAA</option>
          </NativeSelect>
        </div>
        <div className="grid gap-1">
          <Label htmlFor={id('engine')}>Engine</Label>
          <NativeSelect
            id={id('engine')}
            value={filters.engine}
            onChange={(event) => set('engine', event.target.value as IssueFilters['engine'])}
          >
            <option value="all">All engines</option>
            {engines.map((engine) => (
              <option key={engine} value={engine}>
                {engineNames[engine]}
              </option>
            ))}
          </NativeSelect>
        </div>
      </div>
      <div className="flex flex-wrap items-center gap-x-6 gap-y-2">
        <div className="flex items-center gap-2">
          <Checkbox
            id={id('corroborated')}
            checked={filters.corroborated}
            onCheckedChange={(checked) => set('corroborated', checked === true)}
          />
          <Label htmlFor={id('corroborated')}>Found by 2 or more engines</Label>
        </div>
        {hasComparison && (
          <div className="flex items-center gap-2">
            <Checkbox
              id={id('new')}
              checked={filters.onlyNew}
              onCheckedChange={(checked) => set('onlyNew', checked === true)}
            />
            <Label htmlFor={id('new')}>New since the previous scan</Label>
          </div>
        )}
        <button
          type="button"
          className="text-sm font-semibold text-brand-700 underline underline-offset-4"
          onClick={reset}
        >
          Clear filters
        </button>
      </div>
    </fieldset>
  );
}

function KindPanel({
  kind,
  issues,
  filters,
  screenshotUrl,
  idPrefix,
  headingLevel,
  elementActions,
}: {
  kind: FindingKind;
  issues: ReportIssue[];
  filters: IssueFilters;
  screenshotUrl: string | null;
  idPrefix: string;
  headingLevel: 3 | 4;
  elementActions?: ((issue: ReportIssue) => ReactNode) | undefined;
}) {
  const shown = issues.filter((issue) => matchesFilters(issue, filters));
  const groups = groupByRule(shown);
  const noun = kindTabLabels[kind].toLowerCase();
  return (
    <div>
      <p className="text-sm text-slate-700">{kindIntro[kind]}</p>
      <p role="status" className="mt-2 text-sm font-semibold">
        {shown.length === issues.length
          ? `${issues.length} ${noun}`
          : `Showing ${shown.length} of ${issues.length} ${noun}`}
        {` in ${groups.length} rule${groups.length === 1 ? '' : 's'}`}
      </p>
      {groups.length === 0 ? (
        <p className="mt-4 text-slate-700">
          {issues.length === 0 ? `No ${noun} on this page.` : 'No issue matches these filters.'}
        </p>
      ) : (
        <ul className="mt-3 grid gap-3">
          {groups.map((group) => (
            <li key={group.ruleKey}>
              <RuleGroupCard
                group={group}
                screenshotUrl={screenshotUrl}
                id={`${idPrefix}-${group.ruleKey.replace(/[^a-zA-Z0-9_-]/g, '_')}`}
                headingLevel={headingLevel}
                elementActions={elementActions}
              />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function engineList(engines: readonly EngineId[]): string {
  return engines.map((engine) => engineNames[engine]).join(', ');
}

/** axe's failure summary lists what an element lacks; it is what axe found, not the fix. */
const findingsLabel = `What ${engineNames.axe} found on the element`;

/**
 * The engines' help pages for an issue's rules, beside our guidance: one link per page, leaving
 * out pages that are the WCAG Understanding pages already linked (HTML_CodeSniffer's).
 */
function engineHelpLinks(
  issue: ReportIssue,
  criteria: readonly { url: string }[],
): { url: string; label: string }[] {
  const entries =
    issue.help ??
    (issue.helpUrl ? [{ engine: issue.source, rule: issue.rule, url: issue.helpUrl }] : []);
  const seen = new Set(criteria.map((criterion) => criterion.url));
  const links: { url: string; label: string }[] = [];
  for (const entry of entries) {
    if (seen.has(entry.url)) continue;
    seen.add(entry.url);
    links.push({ url: entry.url, label: `${engineNames[entry.engine]} help: ${entry.rule}` });
  }
  return links;
}

function RuleGroupCard({
  group,
  screenshotUrl,
  id,
  headingLevel,
  elementActions,
}: {
  group: RuleGroup;
  screenshotUrl: string | null;
  id: string;
  headingLevel: 3 | 4;
  elementActions?: ((issue: ReportIssue) => ReactNode) | undefined;
}) {
  const [open, setOpen] = useState(false);
  const [selected, setSelected] = useState(0);
  const panelId = `${id}-details`;
  const first = group.issues[0]!;
  const engines = engineIds.filter((engine) =>
    group.issues.some((issue) => issue.engines.includes(engine)),
  );
  const newCount = group.issues.filter((issue) => issue.isNew).length;
  const criteria = first.criteria ?? [];
  const elementCount = group.issues.length;
  // The engines' findings are often word for word the same on every element: say them once.
  const fixes = new Set(group.issues.map((issue) => issue.fix ?? ''));
  const sharedFix = fixes.size === 1 && first.fix ? first.fix : null;
  const guidance = useRuleGuidance(group.ruleKey, open);
  const help = engineHelpLinks(first, criteria);
  return (
    <div className="rounded-xl border border-slate-200 bg-white shadow-sm">
      <Heading level={headingLevel} className="m-0">
        <button
          type="button"
          aria-expanded={open}
          aria-controls={panelId}
          onClick={() => setOpen((value) => !value)}
          className="flex w-full flex-wrap items-center gap-2 rounded-xl p-4 text-left focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
        >
          <span
            className={cn(
              'rounded px-2 py-0.5 text-xs font-semibold uppercase',
              impactClasses[group.impact],
            )}
          >
            {group.impact}
          </span>
          <span className="min-w-0 flex-1 font-semibold">{group.title}</span>
          <span className="text-sm text-slate-700">
            {elementCount} element{elementCount === 1 ? '' : 's'}
          </span>
          {newCount > 0 && (
            <span className="rounded bg-blue-100 px-2 py-0.5 text-xs font-semibold text-blue-900">
              {newCount} new
            </span>
          )}
          <ChevronDown
            aria-hidden="true"
            className={cn('h-5 w-5 shrink-0 transition-transform', open && 'rotate-180')}
          />
        </button>
      </Heading>
      <div id={panelId} hidden={!open} className="border-t border-slate-200 p-4">
        {guidance ? (
          <RuleGuidancePanel guidance={guidance} headingLevel={headingLevel === 3 ? 4 : 5} />
        ) : (
          <p className="text-slate-800">{group.description}</p>
        )}
        <p className="mt-3 text-sm text-slate-700">
          Found by {engineList(engines)}
          {group.wcag.length > 0 ? ` · WCAG ${group.wcag.join(', ')}` : ' · no WCAG criterion'}
        </p>
        <div className="mt-3 flex flex-wrap gap-x-4 gap-y-1 text-sm">
          {help.map((link) => (
            <a
              key={link.url}
              className="inline-flex items-center gap-1 font-semibold text-brand-700 underline underline-offset-4"
              href={link.url}
              target="_blank"
              rel="noopener noreferrer"
            >
              {link.label}
              <ExternalLink aria-hidden="true" className="h-3.5 w-3.5" />
              <span className="sr-only"> (opens in a new tab)</span>
            </a>
          ))}
          {criteria
            .filter((criterion) => criterion.url)
            .map((criterion) => (
              <a
                key={criterion.id}
                className="inline-flex items-center gap-1 font-semibold text-brand-700 underline underline-offset-4"
                href={criterion.url}
                target="_blank"
                rel="noopener noreferrer"
              >
                Understanding {criterion.id} {criterion.name}
                {criterion.level ? ` (Level ${criterion.level})` : ''}
                <ExternalLink aria-hidden="true" className="h-3.5 w-3.5" />
                <span className="sr-only"> (opens in a new tab)</span>
              </a>
            ))}
        </div>
        {sharedFix && (
          <div className="mt-3">
            <p className="text-sm font-semibold">{findingsLabel}</p>
            <p className="text-sm whitespace-pre-line text-slate-800">{sharedFix}</p>
          </div>
        )}
        <ol className="mt-4 grid gap-3">
          {group.issues.map((issue, index) => (
            <li key={issue.id} className="rounded-lg border border-slate-200 p-3">
              <ElementDetails
                showFix={!sharedFix}
                issue={issue}
                index={index}
                screenshotUrl={screenshotUrl}
                showShot={open && index === selected}
                onShow={() => setSelected(index)}
              />
              {open && elementActions && (
                <div className="mt-3 border-t border-slate-200 pt-3">{elementActions(issue)}</div>
              )}
            </li>
          ))}
        </ol>
      </div>
    </div>
  );
}

function ElementDetails({
  issue,
  index,
  screenshotUrl,
  showShot,
  onShow,
  showFix,
}: {
  showFix: boolean;
  issue: ReportIssue;
  index: number;
  screenshotUrl: string | null;
  showShot: boolean;
  onShow: () => void;
}) {
  const where = issue.selector || 'the page as a whole';
  const rules = Object.entries(issue.rules)
    .map(([engine, ids]) => `${engine}: ${(ids ?? []).join(', ')}`)
    .join(' · ');
  return (
    <div className="min-w-0">
      <p className="flex flex-wrap items-center gap-2 text-sm">
        <span className="font-semibold">Element {index + 1}</span>
        <code className="min-w-0 break-all text-slate-800">{where}</code>
        {issue.isNew && (
          <span className="rounded bg-blue-100 px-2 text-xs font-semibold text-blue-900">New</span>
        )}
        {issue.engines.length > 1 && (
          <span className="text-slate-700">
            found by {issue.engines.length} engines ({engineList(issue.engines)})
          </span>
        )}
      </p>
      {showFix && issue.fix && (
        <div className="mt-2">
          <p className="text-sm font-semibold">{findingsLabel}</p>
          <p className="text-sm whitespace-pre-line text-slate-800">{issue.fix}</p>
        </div>
      )}
      {issue.html && (
        <div className="mt-2">
          <p className="text-sm font-semibold">Failing HTML</p>
          <pre className="mt-1 max-h-40 overflow-auto rounded bg-slate-100 p-2 text-xs break-all whitespace-pre-wrap text-slate-900">
            <code>{issue.html}</code>
          </pre>
        </div>
      )}
      {screenshotUrl && issue.box ? (
        showShot ? (
          <ElementScreenshot src={screenshotUrl} box={issue.box} label={`element ${index + 1}`} />
        ) : (
          <button
            type="button"
            className="mt-2 text-sm font-semibold text-brand-700 underline underline-offset-4"
            onClick={onShow}
          >
            Show element {index + 1} on the screenshot
          </button>
        )
      ) : null}
      <p className="mt-2 text-xs break-all text-slate-700">
        Details: {rules || issue.rule} · rule key {issue.ruleKey} · confidence {issue.confidence}
      </p>
    </div>
  );
}
