import type { UseQueryResult } from '@tanstack/react-query';
import { ArrowLeft } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { ApiError, messageOf } from '../lib/api-client';
import { usePageTitle } from '../lib/page-title';
import { paths } from '../lib/paths';
import { Spinner } from './ui/spinner';

/**
 * The frame of a screen about one monitored domain (its triage, its rules and pages): a way back
 * to the domain, the heading, and the loading and error states of what the screen reads.
 */
export function DomainSubpage<T>({
  title,
  heading,
  useData,
  loading,
  notFound,
  failed,
  children,
}: {
  /** The document title before " · domain". */
  title: string;
  /** The heading before " of domain". */
  heading: string;
  useData: (domain: string) => UseQueryResult<T>;
  loading: string;
  /** Said on a 404: the domain is not one the organisation monitors. */
  notFound: string;
  failed: string;
  children: (domain: string, data: T) => ReactNode;
}) {
  const { domain = '' } = useParams();
  usePageTitle(`${title} · ${domain}`);
  const query = useData(domain);
  return (
    <div className="mx-auto max-w-6xl px-4 py-8">
      <Link
        to={paths.dashboardDomain.getHref(domain)}
        className="inline-flex items-center gap-1 text-sm font-semibold text-brand-700 underline"
      >
        <ArrowLeft aria-hidden="true" className="h-4 w-4" />
        {domain}
      </Link>
      <h1 className="mt-2 text-3xl font-bold break-words">
        {heading} of {domain}
      </h1>
      {query.isPending && <Spinner label={loading} />}
      {query.isError && (
        <p role="alert" className="mt-6 rounded-md border border-bad p-4 text-bad">
          {query.error instanceof ApiError && query.error.status === 404
            ? notFound
            : messageOf(query.error, failed)}
        </p>
      )}
      {query.data !== undefined && children(domain, query.data)}
    </div>
  );
}
