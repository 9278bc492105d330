import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  IntegrationSettings,
  UpdateIntegrationsRequest,
  WebhookDelivery,
} from '#contract/trackers.js';
import { api } from '../../../lib/api-client';

const path = '/api/organisation/integrations';
const key = ['integrations'] as const;

export function useIntegrations() {
  return useQuery({ queryKey: key, queryFn: () => api.get<IntegrationSettings>(path) });
}

export function useUpdateIntegrations() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: UpdateIntegrationsRequest) => api.put<IntegrationSettings>(path, change),
    onSuccess: (settings) => queryClient.setQueryData(key, settings),
  });
}

export function useTestWebhook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<WebhookDelivery>(`${path}/webhook-test`, {}),
    onSettled: () => queryClient.invalidateQueries({ queryKey: key }),
  });
}
