import { queryOptions, useQuery } from '@tanstack/react-query';
import type { SubscriptionStatusResponse } from '#contract/domains.js';
import { api } from '../../lib/api-client';

/** Spec dashboard-area §4/§7: the subscription is read again every 30 seconds. */
export const subscriptionStatusRefetchMs = 30_000;

export const getSubscriptionStatus = () =>
  api.get<SubscriptionStatusResponse>('/api/subscription-status');

/**
 * Read by the dashboard shell (Active badge, gate), the billing section and the subscribe page;
 * one key, so they share one cache entry and one 30-second poll.
 */
export const subscriptionStatusQueryOptions = () =>
  queryOptions({
    queryKey: ['subscription-status'],
    queryFn: getSubscriptionStatus,
    staleTime: 0,
    refetchInterval: subscriptionStatusRefetchMs,
  });

/**
 * `refetchOnMount: false` for a reader that mounts only once a screen around it has the answer:
 * reading it again then would only repeat the request its screen just made (issue 27).
 */
export function useSubscriptionStatus(options: { refetchOnMount?: boolean } = {}) {
  return useQuery({ ...subscriptionStatusQueryOptions(), ...options });
}

/** Spec §4: active or trialing counts as an active subscription. */
export function hasActiveSubscription(status: SubscriptionStatusResponse | undefined): boolean {
  return status?.subscriptionStatus === 'active' || status?.subscriptionStatus === 'trialing';
}

/** Spec §4: a subscription is needed when it is not active and the trial has ended. */
export function needsSubscription(status: SubscriptionStatusResponse): boolean {
  return !hasActiveSubscription(status) && status.trialEnded;
}

/** Spec §4: a payment method is needed when trialing with no card added. */
export function needsPaymentMethod(status: SubscriptionStatusResponse): boolean {
  return status.subscriptionStatus === 'trialing' && !status.cardAdded;
}
