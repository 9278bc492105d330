import { useMutation } from '@tanstack/react-query';
import type { DiscoveryResult } from '#contract/discovery.js';
import { api } from '../../../lib/api-client';

/** The site's pages worth scanning, homepage first (spec §7 POST /api/discover-pages). */
export const discoverPages = (url: string) =>
  api.post<DiscoveryResult>('/api/discover-pages', { url });

export function useDiscoverPages() {
  return useMutation({ mutationFn: discoverPages });
}
