import { Link } from 'react-router';
import { paths } from '../../../lib/paths';
import { usePageTitle } from '../../../lib/page-title';
import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { messageOf } from '../../../lib/api-client';
import { cn } from '../../../lib/cn';
import { useScanList } from '../api/list-scans';
import { formatDateTime, formatScoreWithLabel } from '#contract/vocabulary.js';

/**
 * The account's scans, each linking to its report: a page of its own for an account without
 * Compliance Shield, a tab of the overview (`embedded`, under the overview's heading) with it.
 */
export function DashboardPage({ embedded = false }: { embedded?: boolean }) {
  usePageTitle(embedded ? 'Overview' : 'Dashboard');
  const scans = useScanList();
  const Heading = embedded ? 'h2' : 'h1';
  return (
    <div className={cn(!embedded && 'mx-auto max-w-5xl px-4 py-12')}>
      <div className="flex flex-wrap items-center justify-between gap-4">
        <Heading className={embedded ? 'text-2xl font-bold' : 'text-3xl font-bold'}>
          Your scans
        </Heading>
        <Button asChild>
          <Link to={paths.scan.getHref()}>New scan</Link>
        </Button>
      </div>
      {scans.isPending && <Spinner label="Loading your scans" />}
      {scans.isError && (
        <p role="alert" className="mt-6 text-bad">
          {messageOf(scans.error, 'Your scans could not be loaded.')}
        </p>
      )}
      {scans.data && scans.data.scans.length === 0 && (
        <p className="mt-6 text-slate-700">No scans yet. Start one to see its report here.</p>
      )}
      {scans.data && scans.data.scans.length > 0 && (
        // A table too wide for a phone scrolls inside its box, not the page.
        <div className="mt-6 overflow-x-auto">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">Scans of your websites, newest first</caption>
            <thead className="border-b border-slate-300">
              <tr>
                <th scope="col" className="py-2 pr-4">
                  Website
                </th>
                <th scope="col" className="py-2 pr-4">
                  Started
                </th>
                <th scope="col" className="py-2 pr-4">
                  Status
                </th>
                <th scope="col" className="py-2 pr-4">
                  Score
                </th>
                <th scope="col" className="py-2 pr-4">
                  Issues
                </th>
                <th scope="col" className="py-2">
                  Critical
                </th>
              </tr>
            </thead>
            <tbody>
              {scans.data.scans.map((scan) => {
                const done = scan.status === 'completed';
                return (
                  <tr key={scan.id} className="border-b border-slate-200">
                    <td className="py-2 pr-4 break-all">
                      <Link to={paths.report.getHref(scan.id)} className="text-brand-600 underline">
                        {scan.url}
                      </Link>
                    </td>
                    <td className="py-2 pr-4">{formatDateTime(scan.createdAt)}</td>
                    <td className="py-2 pr-4">{scan.status}</td>
                    <td className="py-2 pr-4">{formatScoreWithLabel(scan.accessibilityScore)}</td>
                    <td className="py-2 pr-4">{done ? scan.totalIssues : '–'}</td>
                    <td className="py-2">{done ? scan.violations.critical : '–'}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
