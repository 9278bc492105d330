import { queryOptions, useQuery } from '@tanstack/react-query';
import type { RulePagesView } from '#contract/rule-pages.js';
import { api } from '../../../lib/api-client';

export const rulePagesQueryOptions = (domain: string) =>
  queryOptions({
    queryKey: ['rule-pages', domain],
    queryFn: () => api.get<RulePagesView>(`/api/domains/${encodeURIComponent(domain)}/rules`),
  });

export function useRulePages(domain: string) {
  return useQuery(rulePagesQueryOptions(domain));
}
