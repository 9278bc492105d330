import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SessionResponse } from '#contract/auth.js';
import type { TeamResponse } from '#contract/team.js';
import type {
  TriageChangeRequest,
  TriageChangeResponse,
  TriageHistoryResponse,
  TriageListResponse,
} from '#contract/triage.js';
import { api } from '../../lib/api-client';

const base = (domain: string) => `/api/domains/${encodeURIComponent(domain)}/triage`;

export const triageQueryOptions = (domain: string) =>
  queryOptions({
    queryKey: ['triage', domain],
    queryFn: () => api.get<TriageListResponse>(base(domain)),
  });

export function useTriage(domain: string) {
  return useQuery(triageQueryOptions(domain));
}

export function useTriageHistory(domain: string, issueKey: string, enabled: boolean) {
  return useQuery({
    queryKey: ['triage', domain, 'history', issueKey],
    queryFn: () =>
      api.get<TriageHistoryResponse>(`${base(domain)}/${encodeURIComponent(issueKey)}`),
    enabled,
  });
}

/** One change to the chosen issues; the list, their histories and the domain's figures are read again. */
export function useChangeTriage(domain: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: TriageChangeRequest) =>
      api.post<TriageChangeResponse>(base(domain), change),
    onSuccess: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: ['triage', domain] }),
        queryClient.invalidateQueries({ queryKey: ['dashboard'] }),
      ]);
    },
  });
}

/** Who may be assigned (members who are not viewers) and who is asking, with their role. */
export function useTeamAndMe() {
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: ['triage', 'team-and-me'],
    queryFn: async () => {
      const [team, user] = await Promise.all([
        api.get<TeamResponse>('/api/organisation/members'),
        // The account as the page's header has just read it (the app's one session key), not
        // a second request for the same answer.
        queryClient.ensureQueryData({
          queryKey: ['current-user'],
          queryFn: async () => (await api.get<SessionResponse>('/api/session')).user,
        }),
      ]);
      const me = team.members.find((member) => member.userId === user?.id);
      return { members: team.members, me };
    },
    staleTime: 60_000,
  });
}
