import {
  AlertTriangle,
  Award,
  CalendarClock,
  CheckCircle2,
  Circle,
  Download,
  Globe,
  PlayCircle,
  ShieldCheck,
} from 'lucide-react';
import type { ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router';
import type { ActivityItem, DashboardOverview, OverviewSite } from '#contract/dashboard.js';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Spinner } from '../../../components/ui/spinner';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../../components/ui/tabs';
import { messageOf } from '../../../lib/api-client';
import { usePageTitle } from '../../../lib/page-title';
import { paths } from '../../../lib/paths';
import { isPlanRequired, type useOverview } from '../api/get-overview';
import { formatDate, formatDateTime, formatScore, signedPoints } from '../score';
import { ScoreBadge, TrendBadge } from './score-badges';

/**
 * "$1,234.50", as Intl's en-US currency format writes it, without building that formatter: its
 * first construction loads currency data, about 110 ms of a throttled phone's main thread while
 * the overview's code starts (issue 27).
 */
function usd(amount: number): string {
  const [whole = '0', cents = '00'] = Math.abs(amount).toFixed(2).split('.');
  return `${amount < 0 ? '-' : ''}$${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${cents}`;
}

/**
 * The overview of /app/dashboard (spec §2): critical-issues banner, Compliance Status (the sites
 * first), get-started checklist, Recent Activity, Essential Actions, Key Metrics, Business
 * Protection, Upcoming Events, plan card and the activity feed, all from `GET /api/dashboard`; the account's scans
 * on a second tab. Without Compliance Shield (402) only the scans show, under the plan card.
 */
export function OverviewPage({
  overview,
  renderScans,
}: {
  /**
   * `GET /api/dashboard`, read by the screen around this page (one reader: a second one mounting
   * after a 402 would ask again).
   */
  overview: ReturnType<typeof useOverview>;
  /** The account's scans: a tab here (`embedded`), or the page of an account without the plan. */
  renderScans: (embedded: boolean) => ReactNode;
}) {
  usePageTitle('Overview');
  const [params, setParams] = useSearchParams();
  const tab = params.get('tab') === 'scans' ? 'scans' : 'overview';
  const showTab = (value: string) =>
    setParams(value === 'scans' ? { tab: 'scans' } : {}, { replace: true });

  if (overview.isPending)
    return <Spinner label="Loading your dashboard" className="min-h-[50vh]" />;
  if (overview.isError && isPlanRequired(overview.error)) return <>{renderScans(false)}</>;

  return (
    <div className="mx-auto max-w-6xl px-4 py-8">
      <h1 className="text-3xl font-bold">Overview</h1>
      <Tabs value={tab} onValueChange={showTab} className="mt-4">
        <TabsList aria-label="Dashboard views">
          <TabsTrigger value="overview">Overview</TabsTrigger>
          <TabsTrigger value="scans">Scans</TabsTrigger>
        </TabsList>
        <TabsContent value="overview">
          {overview.isError ? (
            <p role="alert" className="mt-4 rounded-md border border-bad p-4 text-bad">
              {messageOf(overview.error, 'Your dashboard could not be loaded.')}
            </p>
          ) : (
            <OverviewContent data={overview.data} onReview={() => showTab('scans')} />
          )}
        </TabsContent>
        <TabsContent value="scans">{renderScans(true)}</TabsContent>
      </Tabs>
    </div>
  );
}

/**
 * Issue 27: the overview leads with the sites' standing and what changed, each figure saying where
 * it comes from; the plan and billing come last. Figures the product cannot source (the spec's
 * "Industry benchmark 73", a "VPAT renewal" and a "Quarterly review" nobody scheduled) are not
 * shown (ADR 0036).
 */
function OverviewContent({ data, onReview }: { data: DashboardOverview; onReview: () => void }) {
  return (
    <div className="grid grid-cols-1 gap-6">
      {data.critical.domainsBelow > 0 && (
        <section
          aria-labelledby="critical-heading"
          className="flex flex-wrap items-center justify-between gap-4 rounded-xl border-2 border-red-700 bg-red-50 p-4"
        >
          <div className="flex items-start gap-3">
            <AlertTriangle aria-hidden="true" className="mt-1 h-6 w-6 shrink-0 text-red-800" />
            <div>
              <h2 id="critical-heading" className="text-lg font-bold text-red-900">
                Critical issues
              </h2>
              <p className="text-red-900">
                {data.critical.domainsBelow}{' '}
                {data.critical.domainsBelow === 1 ? 'site scores' : 'sites score'} under{' '}
                {data.critical.threshold}, with {data.critical.criticalIssues} critical{' '}
                {data.critical.criticalIssues === 1 ? 'issue' : 'issues'} in their latest scans.
              </p>
            </div>
          </div>
          <Button type="button" variant="outline" onClick={onReview}>
            Review
          </Button>
        </section>
      )}
      <ComplianceStatus domains={data.domains} metrics={data.metrics} />
      {data.checklist.show && <Checklist data={data} />}
      {data.metrics.totalScans === 0 && (
        <Card>
          <h2 className="text-lg font-bold">No scans yet</h2>
          <p className="mt-2 text-slate-700">
            Scan a page of your site to see its score, its issues and your dashboard fill in.
          </p>
          <Button asChild className="mt-4">
            <Link to={paths.scan.getHref()}>Run your first audit</Link>
          </Button>
        </Card>
      )}
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
        <RecentActivity scans={data.recentScans} />
        <EssentialActions latestReportId={data.latestReportId} />
      </div>
      <KeyMetrics metrics={data.metrics} />
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-3">
        <ProtectionCard data={data} />
        <EventsCard events={data.events} lastScan={latestScanDate(data.domains)} />
        <PlanCard plan={data.plan} />
      </div>
      <ActivityFeed items={data.activity} />
    </div>
  );
}

/** The newest "last scan" of the account's sites: the date the overview's figures are as of. */
function latestScanDate(domains: DashboardOverview['domains']): string | null {
  return domains.reduce<string | null>(
    (latest, d) => (d.lastScan && (!latest || d.lastScan > latest) ? d.lastScan : latest),
    null,
  );
}

function SectionCard({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <Card>
      <section aria-labelledby={id}>
        <h2 id={id} className="text-lg font-bold">
          {title}
        </h2>
        <div className="mt-3">{children}</div>
      </section>
    </Card>
  );
}

function Checklist({ data }: { data: DashboardOverview }) {
  const steps = [
    {
      done: data.checklist.domainAdded,
      label: 'Add your domain',
      href: paths.dashboardDomains.getHref(),
    },
    { done: data.checklist.firstScan, label: 'Run your first scan', href: paths.scan.getHref() },
    {
      done: data.checklist.ownershipVerified,
      label: 'Verify that the site is yours',
      href: paths.dashboardDomains.getHref(),
    },
    {
      done: data.checklist.badgeActive,
      label: 'Put the badge on your site',
      href: paths.dashboardBadge.getHref(),
    },
  ];
  return (
    <SectionCard id="checklist-heading" title="Get started">
      <ol className="grid grid-cols-1 gap-2">
        {steps.map((step) => (
          <li key={step.label} className="flex items-center gap-2">
            {step.done ? (
              <CheckCircle2 aria-hidden="true" className="h-5 w-5 text-green-700" />
            ) : (
              <Circle aria-hidden="true" className="h-5 w-5 text-slate-600" />
            )}
            {step.done ? (
              <span>
                {step.label} <span className="sr-only">(done)</span>
              </span>
            ) : (
              <Link to={step.href} className="font-semibold text-brand-700 underline">
                {step.label}
              </Link>
            )}
          </li>
        ))}
      </ol>
    </SectionCard>
  );
}

function PlanCard({ plan }: { plan: DashboardOverview['plan'] }) {
  return (
    <SectionCard id="plan-heading" title={plan.name}>
      <p className="text-3xl font-extrabold">
        {usd(plan.monthlyPrice)}
        <span className="text-base font-semibold text-slate-700">/month</span>
      </p>
      <dl className="mt-3 grid gap-1 text-sm">
        <div className="flex justify-between gap-2">
          <dt className="text-slate-700">Next billing</dt>
          <dd className="font-semibold">
            {plan.nextBillingDate ? formatDate(plan.nextBillingDate) : 'None scheduled'}
          </dd>
        </div>
        <div className="flex justify-between gap-2">
          {/* The subscription's state, not a verdict on the sites: their standing is the score's
              (Compliance Status above). */}
          <dt className="text-slate-700">Monitoring</dt>
          <dd className="flex items-center gap-1 font-semibold">
            {plan.protected ? (
              <>
                <ShieldCheck aria-hidden="true" className="h-4 w-4 text-green-700" /> Active
              </>
            ) : (
              'Not active'
            )}
          </dd>
        </div>
        {plan.trialDaysRemaining > 0 && (
          <div className="flex justify-between gap-2">
            <dt className="text-slate-700">Free month</dt>
            <dd className="font-semibold">{plan.trialDaysRemaining} days left</dd>
          </div>
        )}
      </dl>
      <Button asChild variant="outline" className="mt-4">
        <Link to={paths.dashboardSettings.getHref()}>Manage billing</Link>
      </Button>
    </SectionCard>
  );
}

function ProtectionCard({ data }: { data: DashboardOverview }) {
  const p = data.protection;
  const rows: [string, string][] = [
    ['Brand protection (from the average score)', p.level ?? 'Not rated yet'],
    ['Monitored domains', String(p.monitoredDomains)],
    ['Days monitored', String(p.daysProtected)],
    // A badge is served exactly while the domain's status page is (monitored and verified).
    ['Status pages and badges live', String(p.publicPages)],
    ['Open complaints', String(p.openComplaints)],
  ];
  return (
    <SectionCard id="protection-heading" title="Business Protection">
      <dl className="grid gap-1 text-sm">
        {rows.map(([term, value]) => (
          <div key={term} className="flex justify-between gap-2">
            <dt className="text-slate-700">{term}</dt>
            <dd className="font-semibold">{value}</dd>
          </div>
        ))}
      </dl>
    </SectionCard>
  );
}

function EventsCard({
  events,
  lastScan,
}: {
  events: DashboardOverview['events'];
  lastScan: string | null;
}) {
  return (
    <SectionCard id="events-heading" title="Upcoming Events">
      <p className="flex items-center justify-between gap-2 text-sm">
        <span className="flex items-center gap-2 text-slate-700">
          <CalendarClock aria-hidden="true" className="h-4 w-4" />
          Next audit
        </span>
        <span className="font-semibold">
          {events.nextAudit ? formatDate(events.nextAudit) : 'After your first scan'}
        </span>
      </p>
      {events.nextAudit && lastScan && (
        <p className="mt-2 text-xs text-slate-700">
          A week after the latest scan ({formatDate(lastScan)}).
        </p>
      )}
    </SectionCard>
  );
}

function ComplianceStatus({
  domains,
  metrics,
}: {
  domains: DashboardOverview['domains'];
  metrics: DashboardOverview['metrics'];
}) {
  return (
    <SectionCard id="compliance-heading" title="Compliance Status">
      {domains.length === 0 ? (
        <p className="text-slate-700">No domains yet. Add one to see its score here.</p>
      ) : (
        <div className="overflow-x-auto">
          <p className="mb-3 text-sm text-slate-700">
            {metrics.averageScore !== null && (
              <>
                Average score <strong className="text-slate-900">{metrics.averageScore}</strong>
                {metrics.trendPoints !== null && (
                  <> ({signedPoints(metrics.trendPoints)} against your earlier scans)</>
                )}
                .{' '}
              </>
            )}
            Each score and its status come from the site's latest completed scan (dated on the
            right); “Before” is the scan before it. “What changed” counts the issues new and fixed
            in a monitored site's latest site audit against the audit before it, or, for a site
            without one, in each page's latest scan against that page's scan before it.
          </p>
          <table className="w-full text-left text-sm">
            <caption className="sr-only">Each site's latest score and its trend</caption>
            <thead className="border-b border-slate-300">
              <tr>
                <th scope="col" className="py-2 pr-4">
                  Domain
                </th>
                <th scope="col" className="py-2 pr-4">
                  Score
                </th>
                <th scope="col" className="py-2 pr-4">
                  Before
                </th>
                <th scope="col" className="py-2 pr-4">
                  Trend
                </th>
                <th scope="col" className="py-2 pr-4">
                  Issues
                </th>
                <th scope="col" className="py-2 pr-4">
                  What changed
                </th>
                <th scope="col" className="py-2">
                  Last scan
                </th>
              </tr>
            </thead>
            <tbody>
              {domains.map((d) => (
                <tr key={d.domain} className="border-b border-slate-200">
                  <th scope="row" className="py-2 pr-4 font-semibold">
                    <Link
                      to={paths.dashboardDomain.getHref(d.domain)}
                      className="text-brand-700 underline"
                    >
                      {d.domain}
                    </Link>
                    {d.status === null && (
                      <span className="ml-2 text-xs font-normal text-slate-700">not monitored</span>
                    )}
                  </th>
                  <td className="py-2 pr-4">
                    <ScoreBadge score={d.score} />
                  </td>
                  <td className="py-2 pr-4">{formatScore(d.previousScore)}</td>
                  <td className="py-2 pr-4">
                    <TrendBadge trend={d.trend} change={d.change} />
                  </td>
                  <td className="py-2 pr-4">{d.scans > 0 ? d.issues : '–'}</td>
                  <td className="py-2 pr-4">
                    <SiteChangesCell changes={d.changes} />
                  </td>
                  <td className="py-2">
                    {d.lastScan ? formatDate(d.lastScan) : 'Not scanned yet'}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </SectionCard>
  );
}

/** A site's new and fixed issues, with what they were counted against. */
function SiteChangesCell({ changes }: { changes: OverviewSite['changes'] }) {
  if (!changes) return <span className="text-slate-700">Nothing to compare yet</span>;
  const source =
    changes.source === 'site-audit'
      ? `Site audit of ${changes.at ? formatDate(changes.at) : 'today'}${changes.comparedAt ? ` against ${formatDate(changes.comparedAt)}` : ''}`
      : 'Latest scan of each page against the one before';
  return (
    <>
      <span className="font-semibold whitespace-nowrap">
        {changes.new} new, {changes.fixed} fixed
      </span>
      <span className="block text-xs text-slate-700">{source}</span>
    </>
  );
}

function RecentActivity({ scans }: { scans: DashboardOverview['recentScans'] }) {
  return (
    <SectionCard id="recent-heading" title="Recent Activity">
      {scans.length === 0 ? (
        <p className="text-slate-700">No scans yet.</p>
      ) : (
        <ul className="grid grid-cols-1 gap-3">
          {scans.map((scan) => (
            <li key={scan.id} className="flex flex-wrap items-center justify-between gap-2">
              <div className="min-w-0">
                <Link
                  to={paths.report.getHref(scan.id)}
                  className="block truncate font-semibold text-brand-700 underline"
                >
                  {scan.url}
                </Link>
                <span className="text-sm text-slate-700">
                  {formatDateTime(scan.createdAt)} · {scan.status}
                </span>
              </div>
              <ScoreBadge score={scan.score} />
            </li>
          ))}
        </ul>
      )}
    </SectionCard>
  );
}

function EssentialActions({ latestReportId }: { latestReportId: string | null }) {
  const actions = [
    { label: 'Add Domain', href: paths.dashboardDomains.getHref(), icon: Globe },
    { label: 'Run Audit', href: paths.scan.getHref(), icon: PlayCircle },
    {
      label: 'Download',
      href: latestReportId ? paths.dashboardReports.getHref() : paths.scan.getHref(),
      icon: Download,
    },
    { label: 'Get Badge', href: paths.dashboardBadge.getHref(), icon: Award },
  ];
  return (
    <SectionCard id="actions-heading" title="Essential Actions">
      <ul className="grid grid-cols-2 gap-3">
        {actions.map(({ label, href, icon: Icon }) => (
          <li key={label}>
            <Link
              to={href}
              className="flex h-full items-center gap-2 rounded-lg border border-slate-300 p-3 font-semibold hover:bg-slate-50"
            >
              <Icon aria-hidden="true" className="h-5 w-5 text-brand-700" />
              {label}
            </Link>
          </li>
        ))}
      </ul>
    </SectionCard>
  );
}

function KeyMetrics({ metrics }: { metrics: DashboardOverview['metrics'] }) {
  const items: [string, ReactNode][] = [
    ['Average score', formatScore(metrics.averageScore)],
    ['Trend', <TrendBadge key="trend" trend={metrics.trend} change={metrics.trendPoints} />],
    ['Total scans', metrics.totalScans],
    ['Pages scanned', metrics.pagesScanned],
    ['Open issues', metrics.openIssues],
  ];
  return (
    <SectionCard id="metrics-heading" title="Key Metrics">
      <p className="mb-3 text-sm text-slate-700">
        Average score and open issues: your sites as their domain pages show them (a site's latest
        site audit; before its first, the latest scan of each page; an audit that could scan no page
        gives no score). Trend: that average against the mean of your earlier scans. Totals: every
        scan of this account.
      </p>
      <dl className="grid grid-cols-2 gap-4 sm:grid-cols-3 lg:grid-cols-5">
        {items.map(([term, value]) => (
          <div key={term}>
            <dt className="text-sm text-slate-700">{term}</dt>
            <dd className="text-xl font-bold">{value}</dd>
          </div>
        ))}
      </dl>
    </SectionCard>
  );
}

function activityHref(item: ActivityItem): string {
  if (item.metadata.scanId) return paths.report.getHref(item.metadata.scanId);
  if (item.type === 'complaint_received') return paths.dashboardComplaints.getHref();
  return paths.dashboardDomain.getHref(item.metadata.domain);
}

function ActivityFeed({ items }: { items: ActivityItem[] }) {
  return (
    <SectionCard id="feed-heading" title="Activity">
      {items.length === 0 ? (
        <p className="text-slate-700">Nothing has happened yet.</p>
      ) : (
        <ol className="grid grid-cols-1 gap-3">
          {items.map((item) => (
            <li key={item.id} className="border-l-2 border-slate-300 pl-3">
              <Link to={activityHref(item)} className="font-semibold text-brand-700 underline">
                {item.title}
              </Link>
              <p className="text-sm text-slate-700">
                {item.description} · {formatDateTime(item.timestamp)}
              </p>
            </li>
          ))}
        </ol>
      )}
    </SectionCard>
  );
}
