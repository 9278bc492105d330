import type { QueryClient } from '@tanstack/react-query';
import type { CurrentUser } from '#contract/auth.js';
import { currentUserQueryOptions } from './get-current-user';

const currentUserKey = currentUserQueryOptions().queryKey;
const notCurrentUser = (query: { queryKey: readonly unknown[] }) =>
  query.queryKey[0] !== currentUserKey[0];

/**
 * A session check still on its way was asked under the old session, so its answer is dropped:
 * the public frame asks as the log-in page opens, and on a slow connection or a busy server its
 * "nobody" could land after the log-in's answer and send the visitor, just signed in, back to log
 * in; after a sign-out, a check sent before the server ended the session could put the account
 * back in the page.
 */
async function dropPendingSessionCheck(queryClient: QueryClient): Promise<void> {
  await queryClient.cancelQueries({ queryKey: currentUserKey, exact: true });
}

/**
 * Sign-in (log-in or sign-up): the new account is current, and what no screen shows any more is
 * forgotten: after an expired session, the next account to sign in on the tab would otherwise be
 * shown the last one's overview and plan until they were read again. What the screen on show
 * reads (the log-in page's ways to sign in) stays.
 */
export async function startSession(queryClient: QueryClient, user: CurrentUser): Promise<void> {
  await dropPendingSessionCheck(queryClient);
  queryClient.removeQueries({ type: 'inactive', predicate: notCurrentUser });
  queryClient.setQueryData(currentUserKey, user);
}

/** Sign-out: nobody is signed in, and nothing read under the session stays in the page. */
export async function endSession(queryClient: QueryClient): Promise<void> {
  await dropPendingSessionCheck(queryClient);
  queryClient.removeQueries({ predicate: notCurrentUser });
  queryClient.setQueryData(currentUserKey, null);
}
