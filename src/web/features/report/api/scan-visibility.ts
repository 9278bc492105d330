import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ScanVisibilityResponse } from '../../../../contract/scan-api';
import { ApiError, api, request } from '../../../lib/api-client';

/**
 * Whether the scan's public audit page is on. The report does not say, so this asks the public
 * page's own address, which answers only a published scan; 'no-cache' revalidates an answer the
 * browser kept from before a change.
 */
export async function getIsPublic(scanId: string): Promise<boolean> {
  try {
    await api.get(`/api/public/scan/${encodeURIComponent(scanId)}`, { cache: 'no-cache' });
    return true;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return false;
    throw error;
  }
}

export const isPublicQueryOptions = (scanId: string) =>
  queryOptions({ queryKey: ['report', scanId, 'is-public'], queryFn: () => getIsPublic(scanId) });

export function useIsPublic(scanId: string, enabled: boolean) {
  return useQuery({ ...isPublicQueryOptions(scanId), enabled });
}

/** `PATCH /api/scans/{id}/visibility`: only the account that ran the scan may (404 otherwise). */
export const setScanVisibility = (scanId: string, isPublic: boolean) =>
  request<ScanVisibilityResponse>('PATCH', `/api/scans/${encodeURIComponent(scanId)}/visibility`, {
    body: { isPublic },
  });

export function useSetScanVisibility(scanId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (isPublic: boolean) => setScanVisibility(scanId, isPublic),
    onSuccess: (answer) => {
      queryClient.setQueryData(isPublicQueryOptions(scanId).queryKey, answer.isPublic);
      // The public audit page read earlier in this tab is now out of date.
      queryClient.removeQueries({ queryKey: ['public-scan', scanId] });
    },
  });
}
