import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { BadgeSettings, DomainBadge, SaveBadgeBody } from '#contract/badge.js';
import { api } from '../../../lib/api-client';

export const saveBadge = (domain: string, settings: BadgeSettings) =>
  api.put<DomainBadge>(`/api/domains/${encodeURIComponent(domain)}/badge`, {
    settings,
  } satisfies SaveBadgeBody);

export function useSaveBadge() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ domain, settings }: { domain: string; settings: BadgeSettings }) =>
      saveBadge(domain, settings),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['badges'] }),
  });
}
