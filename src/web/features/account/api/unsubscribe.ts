import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { UnsubscribePreview } from '#contract/account.js';
import { api } from '../../../lib/api-client';

/** What an e-mail's unsubscribe link turns off (signed out: the token is the proof). */
export const previewUnsubscribe = (token: string) =>
  api.get<UnsubscribePreview>(
    `/api/account/unsubscribe/preview?token=${encodeURIComponent(token)}`,
  );

export const unsubscribePreviewQueryOptions = (token: string) =>
  queryOptions({
    queryKey: ['unsubscribe', token],
    queryFn: () => previewUnsubscribe(token),
    retry: false,
  });

export function useUnsubscribePreview(token: string) {
  return useQuery({ ...unsubscribePreviewQueryOptions(token), enabled: token !== '' });
}

export const unsubscribe = (token: string) =>
  api.post<UnsubscribePreview>('/api/account/unsubscribe', { token });

export function useUnsubscribe(token: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => unsubscribe(token),
    onSuccess: (answer) =>
      queryClient.setQueryData(unsubscribePreviewQueryOptions(token).queryKey, answer),
  });
}
