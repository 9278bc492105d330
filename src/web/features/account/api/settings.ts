import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AccountSettings, NotificationSettings, ProfileRequest } from '#contract/account.js';
import { api } from '../../../lib/api-client';

/** `GET /api/account/settings`: profile, pending e-mail change, notifications, tour state. */
export const getAccountSettings = () => api.get<AccountSettings>('/api/account/settings');

export const accountSettingsQueryOptions = () =>
  queryOptions({ queryKey: ['account', 'settings'], queryFn: getAccountSettings });

export function useAccountSettings() {
  return useQuery(accountSettingsQueryOptions());
}

/** A settings change answers the new settings; the cached ones are replaced with them. */
function useSettingsMutation<Input>(call: (input: Input) => Promise<AccountSettings>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: (settings) => {
      queryClient.setQueryData(accountSettingsQueryOptions().queryKey, settings);
      // The sidebar and gate read the account's name and address from the current user.
      void queryClient.invalidateQueries({ queryKey: ['current-user'] });
    },
  });
}

export const updateProfile = (input: ProfileRequest) =>
  api.put<AccountSettings>('/api/account/profile', input);
export const useUpdateProfile = () => useSettingsMutation(updateProfile);

export const updateNotifications = (input: NotificationSettings) =>
  api.put<AccountSettings>('/api/account/notifications', input);
export const useUpdateNotifications = () => useSettingsMutation(updateNotifications);
