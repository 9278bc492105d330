import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import type { CurrentUser } from '#contract/auth.js';
import { currentUserQueryOptions } from './get-current-user';
import { endSession, startSession } from './session-change';

const user: CurrentUser = {
  id: 'u1',
  email: 'owner@example.com',
  name: 'Owner',
  plan: 'free',
  subscriptionStatus: 'inactive',
  emailVerified: false,
  trialStartDate: null,
  trialEndDate: null,
  trialUsed: false,
  cardAdded: false,
  hasPassword: true,
  googleLinked: false,
  createdAt: '2026-11-29T08:00:00.000Z',
};
const sessionKey = currentUserQueryOptions().queryKey;

/** A session check the server has not answered yet; `answer` delivers its answer. */
function pendingSessionCheck(client: QueryClient) {
  let answer!: (user: CurrentUser | null) => void;
  const settled = client
    .fetchQuery({
      queryKey: sessionKey,
      queryFn: () => new Promise<CurrentUser | null>((resolve) => (answer = resolve)),
      staleTime: 0,
    })
    .catch(() => undefined);
  return { answer: (value: CurrentUser | null) => answer(value), settled };
}

const newClient = () => new QueryClient({ defaultOptions: { queries: { retry: false } } });

describe('a session starting or ending in the page', () => {
  it('keeps the account signed in when a check sent before the log-in answers "nobody" after it', async () => {
    const client = newClient();
    const check = pendingSessionCheck(client);
    await startSession(client, user);
    check.answer(null);
    await check.settled;
    expect(client.getQueryData(sessionKey)).toEqual(user);
  });

  it('forgets at sign-in what the last session read and no screen shows, not what one does', async () => {
    const client = newClient();
    client.setQueryData(['dashboard', 'overview'], { domains: ['last-account.example'] });
    client.setQueryData(['auth-providers'], { google: true });
    const shown = new QueryObserver(client, {
      queryKey: ['auth-providers'],
      queryFn: () => ({ google: true }),
      staleTime: Infinity,
    });
    const stop = shown.subscribe(() => undefined);
    await startSession(client, user);
    expect(client.getQueryData(['dashboard', 'overview'])).toBeUndefined();
    expect(client.getQueryData(['auth-providers'])).toEqual({ google: true });
    stop();
  });

  it('keeps nobody signed in when a check sent before the sign-out answers the account after it', async () => {
    const client = newClient();
    client.setQueryData(sessionKey, user);
    client.setQueryData(['subscription-status'], { subscriptionStatus: 'active' });
    const check = pendingSessionCheck(client);
    await endSession(client);
    check.answer(user);
    await check.settled;
    expect(client.getQueryData(sessionKey)).toBeNull();
    expect(client.getQueryData(['subscription-status'])).toBeUndefined();
  });
});
