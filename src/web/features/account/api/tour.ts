import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AccountSettings } from '#contract/account.js';
import {
  hasActiveSubscription,
  useSubscriptionStatus,
} from '../../../api/billing/subscription-status';
import { api } from '../../../lib/api-client';
import { accountSettingsQueryOptions, useAccountSettings } from './settings';

/** `POST /api/account/tour`: finished or skipped, the tour does not show again for the account. */
export const completeTour = (outcome: 'finished' | 'skipped') =>
  api.post<{ success: boolean; message: string }>('/api/account/tour', { outcome });

export function useCompleteTour() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: completeTour,
    onMutate: () =>
      queryClient.setQueryData<AccountSettings>(accountSettingsQueryOptions().queryKey, (old) =>
        old ? { ...old, tourCompleted: true } : old,
      ),
  });
}

/**
 * Spec §2: the welcome tour is due for an account with the plan that has not finished or skipped
 * it. Read by the tour and by the dashboard frame, which loads the tour's code only then.
 */
export function useWelcomeTourDue(): boolean {
  const settings = useAccountSettings();
  const status = useSubscriptionStatus();
  return settings.data?.tourCompleted === false && hasActiveSubscription(status.data);
}
