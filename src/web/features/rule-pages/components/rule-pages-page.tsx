import { ExternalLink } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import type { FailingRule, PageChecks, RulePagesView } from '#contract/rule-pages.js';
import { engineNames, formatDate } from '#contract/vocabulary.js';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { messageOf } from '../../../lib/api-client';
import { paths } from '../../../lib/paths';
import { jiraCsvHref, useCreateGithubIssues } from '../../../api/trackers/github';
import { useRulePages } from '../api/rule-pages';
import { DomainSubpage } from '../../../components/domain-subpage';
import { impactClasses } from '../../../components/issues/issue-explorer';
import { GithubIssueLinks } from '../../../components/issues/github-issue-links';
import { addressInSite } from '../../../lib/address-in-site';

/**
 * A domain's failing rules, each with every page and element it fails on in the latest site
 * audit and its trend; issues chosen here go to GitHub or into a Jira CSV. Below, what axe-core
 * tested on each page, said to be exactly that and no more.
 */
export function RulePagesPage() {
  return (
    <DomainSubpage
      title="Rules and pages"
      heading="Rules and pages"
      useData={useRulePages}
      loading="Loading the rules"
      notFound="This domain is not one of your monitored domains."
      failed="The rules could not be loaded."
    >
      {(domain, view) => <RulePagesContent domain={domain} view={view} />}
    </DomainSubpage>
  );
}

function RulePagesContent({ domain, view }: { domain: string; view: RulePagesView }) {
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const create = useCreateGithubIssues(domain);
  if (view.auditId === null) {
    return (
      <p className="mt-6 text-slate-700">
        No site audit of this domain has finished yet: its rules are listed here once one has.
      </p>
    );
  }
  const toggle = (key: string, on: boolean) =>
    setChosen((previous) => {
      const next = new Set(previous);
      if (on) next.add(key);
      else next.delete(key);
      return next;
    });
  const keys = [...chosen];
  return (
    <div className="mt-4 grid gap-6">
      <p className="text-slate-700">
        From the site audit of {formatDate(view.completedAt)}, over {view.pagesAudited}{' '}
        {view.pagesAudited === 1 ? 'page' : 'pages'}. Issues marked as false positives are left out.
      </p>

      <Card>
        <section aria-labelledby="send-heading">
          <h2 id="send-heading" className="text-xl font-bold">
            Send chosen issues
          </h2>
          <p className="mt-1 text-sm text-slate-700">
            Choose elements below. An element found on several pages is one issue, sent once, with
            every page listed.
          </p>
          <div className="mt-3 flex flex-wrap items-center gap-3">
            <span aria-live="polite" className="text-sm font-semibold">
              {keys.length} {keys.length === 1 ? 'issue' : 'issues'} chosen
            </span>
            <Button
              type="button"
              disabled={keys.length === 0 || create.isPending}
              onClick={() => create.mutate(keys)}
            >
              {create.isPending ? 'Creating GitHub issues…' : 'Create GitHub issues'}
            </Button>
            {keys.length > 0 ? (
              <Button asChild variant="outline">
                <a href={jiraCsvHref(domain, keys)} download>
                  Download Jira CSV
                </a>
              </Button>
            ) : (
              <Button type="button" variant="outline" disabled>
                Download Jira CSV
              </Button>
            )}
            <Link
              to={paths.dashboardIntegrations.getHref()}
              className="text-sm font-semibold text-brand-700 underline"
            >
              Integrations settings
            </Link>
          </div>
          {create.isError && (
            <p role="alert" className="mt-3 rounded-md border border-bad p-3 text-bad">
              {messageOf(create.error, 'The GitHub issues could not be created.')}
            </p>
          )}
          <div role="status" className="mt-3">
            <GithubIssueLinks result={create.data} />
          </div>
        </section>
      </Card>

      <section aria-labelledby="rules-heading">
        <h2 id="rules-heading" className="text-2xl font-bold">
          Failing rules ({view.rules.length})
        </h2>
        {view.rules.length === 0 ? (
          <p className="mt-2 text-slate-700">No rule failed in this audit.</p>
        ) : (
          <ul className="mt-3 grid gap-4">
            {view.rules.map((rule) => (
              <li key={rule.ruleKey}>
                <RuleCard rule={rule} chosen={chosen} onToggle={toggle} />
              </li>
            ))}
          </ul>
        )}
      </section>

      <section aria-labelledby="checks-heading">
        <h2 id="checks-heading" className="text-2xl font-bold">
          What the engines tested on each page
        </h2>
        <p className="mt-1 max-w-3xl text-slate-700">
          The checks axe-core ran on each page that passed or had nothing to test there. They show
          what was tested, not that the page conforms: automated checks cover only part of WCAG, and
          a passed check says nothing about what it does not test.
        </p>
        <ul className="mt-3 grid gap-2">
          {view.pageChecks.map((page) => (
            <li key={page.scanId}>
              <PageChecksDetails page={page} />
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}

function RuleCard({
  rule,
  chosen,
  onToggle,
}: {
  rule: FailingRule;
  chosen: Set<string>;
  onToggle: (key: string, on: boolean) => void;
}) {
  const headingId = `rule-${rule.ruleKey}`;
  return (
    <Card className="p-4 sm:p-6">
      <article aria-labelledby={headingId}>
        <h3 id={headingId} className="text-lg font-bold break-words">
          {rule.title}
        </h3>
        <p className="mt-1 flex flex-wrap items-center gap-2 text-sm">
          <span className={`rounded px-2 py-0.5 font-semibold ${impactClasses[rule.impact]}`}>
            {rule.impact}
          </span>
          <span>
            WCAG {rule.wcag.length > 0 ? rule.wcag.join(', ') : 'best practice (no criterion)'}
          </span>
          <span>
            Fails on {rule.pageCount} {rule.pageCount === 1 ? 'page' : 'pages'}, {rule.elementCount}{' '}
            {rule.elementCount === 1 ? 'element' : 'elements'}
          </span>
          <span className="text-slate-700">
            Found by{' '}
            {rule.engines.map((id) => engineNames[id as keyof typeof engineNames] ?? id).join(', ')}
          </span>
        </p>
        <p className="mt-2 text-sm text-slate-700">
          <span className="font-semibold">Trend (failing elements per audit): </span>
          {rule.trend
            .map((point) => `${formatDate(point.completedAt)}: ${point.elements}`)
            .join(' · ')}
        </p>
        <ul className="mt-3 grid gap-3" aria-label={`Pages where “${rule.title}” fails`}>
          {rule.pages.map((page) => (
            <li key={page.scanId} className="rounded-md border border-slate-200 p-3">
              <p className="font-semibold break-all">
                <Link to={paths.report.getHref(page.scanId)} className="text-brand-700 underline">
                  {page.url}
                </Link>
              </p>
              <ul className="mt-2 grid gap-2">
                {page.elements.map((element, index) => {
                  const id = `${rule.ruleKey}-${page.scanId}-${index}`;
                  return (
                    <li key={id} className="grid gap-1">
                      <div className="flex flex-wrap items-center gap-2">
                        <input
                          id={id}
                          type="checkbox"
                          className="h-5 w-5 accent-brand-600"
                          checked={chosen.has(element.issueKey)}
                          onChange={(event) => onToggle(element.issueKey, event.target.checked)}
                        />
                        <label htmlFor={id} className="font-mono text-sm break-all">
                          <span className="sr-only">
                            Choose the element on {addressInSite(page.url)}:{' '}
                          </span>
                          {element.selector}
                        </label>
                        {element.trackerUrl && (
                          <a
                            href={element.trackerUrl}
                            className="inline-flex items-center gap-1 text-sm font-semibold text-brand-700 underline"
                          >
                            <ExternalLink aria-hidden="true" className="h-4 w-4" />
                            GitHub issue
                          </a>
                        )}
                      </div>
                      {element.html && (
                        <pre className="overflow-x-auto rounded bg-slate-100 p-2 text-xs whitespace-pre-wrap break-all">
                          <code>{element.html}</code>
                        </pre>
                      )}
                    </li>
                  );
                })}
              </ul>
            </li>
          ))}
        </ul>
      </article>
    </Card>
  );
}

function PageChecksDetails({ page }: { page: PageChecks }) {
  const notApplicable =
    page.notApplicable === null
      ? 'not applicable not recorded for this scan'
      : `${page.notApplicable.length} not applicable`;
  return (
    <details className="rounded-md border border-slate-200 bg-white p-3">
      <summary className="cursor-pointer font-semibold break-all">
        {page.url}: {page.passed.length} passed, {notApplicable} ({page.engine})
      </summary>
      <div className="mt-2 grid gap-3 sm:grid-cols-2">
        <div>
          <h3 className="font-semibold">Passed</h3>
          <CheckList checks={page.passed} empty="No passed check recorded." />
        </div>
        <div>
          <h3 className="font-semibold">Not applicable (nothing to test)</h3>
          {page.notApplicable === null ? (
            <p className="text-sm text-slate-700">
              This page was scanned before not-applicable checks were recorded.
            </p>
          ) : (
            <CheckList checks={page.notApplicable} empty="None." />
          )}
        </div>
      </div>
    </details>
  );
}

function CheckList({ checks, empty }: { checks: PageChecks['passed']; empty: string }) {
  if (checks.length === 0) return <p className="text-sm text-slate-700">{empty}</p>;
  return (
    <ul className="mt-1 grid gap-1 text-sm">
      {checks.map((check) => (
        <li key={check.id} className="break-words">
          {check.description}
          {check.wcag.length > 0 && (
            <span className="text-slate-700"> (WCAG {check.wcag.join(', ')})</span>
          )}
        </li>
      ))}
    </ul>
  );
}
