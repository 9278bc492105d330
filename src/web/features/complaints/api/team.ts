import { useQuery } from '@tanstack/react-query';
import type { OrganisationsResponse, TeamResponse } from '#contract/team.js';
import { api } from '../../../lib/api-client';

/**
 * Who a complaint can go to: the organisation's members who are not viewers, and the caller's
 * own role (admins and owners assign; the server enforces the same).
 */
export function useAssignees() {
  const team = useQuery({
    queryKey: ['organisation', 'members'],
    queryFn: () => api.get<TeamResponse>('/api/organisation/members'),
    staleTime: 30_000,
  });
  const organisations = useQuery({
    queryKey: ['organisations'],
    queryFn: () => api.get<OrganisationsResponse>('/api/organisations'),
    staleTime: 30_000,
  });
  const role = organisations.data?.active.role;
  return {
    members: team.data?.members.filter((member) => member.role !== 'viewer') ?? [],
    everyone: team.data?.members ?? [],
    canAssign: role === 'owner' || role === 'admin',
  };
}
