import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  AcceptInvitationResponse,
  ChangeRoleRequest,
  InvitationPreview,
  InvitationResponse,
  InviteMemberRequest,
  MemberResponse,
  OrganisationsResponse,
  TeamResponse,
} from '#contract/team.js';
import { api, request } from '../../../lib/api-client';

/** The organisation's people (Settings → Team) and the organisations a person works in. */

type Message = { success: true; message: string };

export const organisationsQueryOptions = () =>
  queryOptions({
    queryKey: ['organisations'],
    queryFn: () => api.get<OrganisationsResponse>('/api/organisations'),
    staleTime: 0,
  });

export function useOrganisations() {
  return useQuery(organisationsQueryOptions());
}

/** Works in another organisation: everything the dashboard shows is read again. */
export function useChooseOrganisation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (organisationId: string | null) =>
      api.post<OrganisationsResponse>('/api/organisations/active', { organisationId }),
    onSuccess: () => queryClient.invalidateQueries(),
  });
}

export const teamQueryOptions = () =>
  queryOptions({
    queryKey: ['organisation', 'members'],
    queryFn: () => api.get<TeamResponse>('/api/organisation/members'),
    staleTime: 0,
  });

export function useTeam() {
  return useQuery(teamQueryOptions());
}

function useTeamMutation<I, O>(mutationFn: (input: I) => Promise<O>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['organisation'] }),
  });
}

const memberPath = (userId: string) => `/api/organisation/members/${encodeURIComponent(userId)}`;

export const useInvite = () =>
  useTeamMutation((input: InviteMemberRequest) =>
    api.post<InvitationResponse>('/api/organisation/invitations', input),
  );

export const useRevokeInvitation = () =>
  useTeamMutation((id: string) =>
    request<Message>('DELETE', `/api/organisation/invitations/${encodeURIComponent(id)}`),
  );

export const useChangeRole = () =>
  useTeamMutation((input: { userId: string } & ChangeRoleRequest) =>
    request<MemberResponse>('PATCH', memberPath(input.userId), { body: { role: input.role } }),
  );

export const useRemoveMember = () =>
  useTeamMutation((userId: string) => request<Message>('DELETE', memberPath(userId)));

const invitationPath = (token: string) => `/api/invitations/${encodeURIComponent(token)}`;

export const invitationQueryOptions = (token: string) =>
  queryOptions({
    queryKey: ['invitation', token],
    queryFn: () => api.get<InvitationPreview>(invitationPath(token)),
    retry: false,
  });

export function useInvitation(token: string) {
  return useQuery(invitationQueryOptions(token));
}

export function useAcceptInvitation(token: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<AcceptInvitationResponse>(`${invitationPath(token)}/accept`),
    onSuccess: () => queryClient.invalidateQueries(),
  });
}
