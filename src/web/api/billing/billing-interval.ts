import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { IntervalChangePreview, IntervalChangeResponse } from '#contract/billing-interval.js';
import type { BillingInterval } from '#contract/invoice.js';
import { api } from '../../lib/api-client';

/** What switching to `interval` would credit and charge now (nothing is changed by asking). */
export const getIntervalPreview = (interval: BillingInterval) =>
  api.get<IntervalChangePreview>(`/api/billing/interval?interval=${interval}`);

export function useIntervalPreview(interval: BillingInterval, enabled: boolean) {
  return useQuery({
    queryKey: ['billing-interval', interval],
    queryFn: () => getIntervalPreview(interval),
    enabled,
    staleTime: 0,
    retry: false,
  });
}

/** Confirms the switch: the server charges its own figures (the body names only the interval). */
export const changeInterval = (interval: BillingInterval) =>
  api.post<IntervalChangeResponse>('/api/billing/interval', { interval });

export function useChangeInterval() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: changeInterval,
    onSettled: () => queryClient.invalidateQueries(),
  });
}
