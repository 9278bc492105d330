import type { FetchQueryOptions, Query, QueryClient } from '@tanstack/react-query';

/**
 * The first screen of a page load renders once, with its data. The server writes that screen's
 * first API answers into the page (src/server/plugins/embedded-answers.ts); the routes' loaders
 * read them into the query cache before the router renders (`readBeforeFirstScreen`), instead of
 * letting each gate, frame and screen ask as it mounts. Asked on mount, every answer (from the
 * page or not) arrived after a render and rendered the tree again, synchronously: on a throttled
 * phone a domain page drew its frame and screen three times over, about half a second of blocked
 * main thread.
 *
 * Data read this way was fetched for this very screen a moment ago, so the screen's queries do
 * not fetch it again as they mount (queries the product reads afresh on every mount, the
 * session and the subscription, would otherwise ask the server twice). That holds for the first
 * screen only: once it has mounted (`firstScreenMounted`), every query mounts as it always does.
 */
let readForFirstScreen = new WeakSet<Query>();
let firstScreenDone = false;

// Any query's options: the loaders read queries of many result types.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyQueryOptions = FetchQueryOptions<any, any, any, any>;

/**
 * Fetches the queries (answered from the page where it carries them) and, until the first screen
 * has mounted, marks each one that succeeded as read for it. A failure is the screen's to show:
 * it never throws.
 */
export async function readBeforeFirstScreen(
  client: QueryClient,
  queries: AnyQueryOptions[],
): Promise<void> {
  await Promise.all(queries.map((options) => client.prefetchQuery(options)));
  if (firstScreenDone) return;
  for (const options of queries) {
    const query = client.getQueryCache().find({ queryKey: options.queryKey, exact: true });
    if (query?.state.status === 'success') readForFirstScreen.add(query);
  }
}

/** The query client's default `refetchOnMount`: not for data read for the first screen. */
export function refetchOnMount(query: Query): boolean {
  return !readForFirstScreen.has(query);
}

/** Whether the page load's first screen is still to mount (its routes' loaders are running). */
export function beforeFirstScreen(): boolean {
  return !firstScreenDone;
}

/** Called once the first screen has mounted: from then on every query mounts as usual. */
export function firstScreenMounted(): void {
  firstScreenDone = true;
  readForFirstScreen = new WeakSet();
}
