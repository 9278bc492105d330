import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  ApiTokensResponse,
  CreateApiTokenRequest,
  CreatedApiTokenResponse,
  RevokedApiTokenResponse,
} from '#contract/api-token.js';
import { api, request } from '../../../lib/api-client';

/** The organisation's API tokens (Settings → API tokens). */

const tokensKey = ['organisation', 'tokens'] as const;

/** The API reference (Swagger UI over the OpenAPI document), which names each call's scope. */
export const apiReferenceHref = '/api/docs';

export const apiTokensQueryOptions = () =>
  queryOptions({
    queryKey: tokensKey,
    queryFn: () => api.get<ApiTokensResponse>('/api/organisation/tokens'),
    staleTime: 0,
  });

export function useApiTokens() {
  return useQuery(apiTokensQueryOptions());
}

export function useCreateApiToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateApiTokenRequest) =>
      api.post<CreatedApiTokenResponse>('/api/organisation/tokens', input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: tokensKey }),
  });
}

export function useRevokeApiToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      request<RevokedApiTokenResponse>(
        'DELETE',
        `/api/organisation/tokens/${encodeURIComponent(id)}`,
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: tokensKey }),
  });
}
