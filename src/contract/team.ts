import { z } from 'zod';
import { organisationRoles } from './organisation.js';

/**
 * The organisation's people (ADR 0025): the organisations a person belongs to and which one
 * they work in, its members and the invitations waiting for an answer.
 */

const role = z.enum(organisationRoles, 'Role must be owner, admin, member or viewer');

/** One organisation the signed-in person belongs to. */
export const OrganisationMembership = z.object({
  organisationId: z.string(),
  organisationName: z.string(),
  role,
  /** The person's own organisation, founded with their account. */
  personal: z.boolean(),
});
export type OrganisationMembership = z.infer<typeof OrganisationMembership>;

/** `GET /api/organisations`: every membership, and the one the browser works in. */
export const OrganisationsResponse = z.object({
  organisations: z.array(OrganisationMembership),
  active: OrganisationMembership,
});
export type OrganisationsResponse = z.infer<typeof OrganisationsResponse>;

/** `POST /api/organisations/active`: work in this organisation, or `null` for one's own. */
export const ChooseOrganisationRequest = z.strictObject({
  organisationId: z.uuid('organisationId must be an organisation id or null').nullable(),
});
export type ChooseOrganisationRequest = z.infer<typeof ChooseOrganisationRequest>;

export const TeamMember = z.object({
  userId: z.string(),
  name: z.string(),
  email: z.string(),
  role,
  joinedAt: z.string(),
  /** The account that founded the organisation: always an owner, never removed. */
  founder: z.boolean(),
});
export type TeamMember = z.infer<typeof TeamMember>;

/** An invitation not yet accepted nor revoked (an expired one is listed, marked so). */
export const PendingInvitation = z.object({
  id: z.string(),
  email: z.string(),
  role,
  invitedBy: z.string().nullable(),
  createdAt: z.string(),
  expiresAt: z.string(),
  expired: z.boolean(),
});
export type PendingInvitation = z.infer<typeof PendingInvitation>;

/** `GET /api/organisation/members`. */
export const TeamResponse = z.object({
  organisationId: z.string(),
  organisationName: z.string(),
  members: z.array(TeamMember),
  invitations: z.array(PendingInvitation),
});
export type TeamResponse = z.infer<typeof TeamResponse>;

export const InviteMemberRequest = z.strictObject({
  email: z
    .string('Enter the e-mail address to invite')
    .trim()
    .max(320, 'An e-mail address is at most 320 characters')
    .pipe(z.email('Please enter a valid email')),
  role,
});
export type InviteMemberRequest = z.infer<typeof InviteMemberRequest>;

export const InvitationResponse = z.object({
  invitation: PendingInvitation,
  message: z.string(),
});
export type InvitationResponse = z.infer<typeof InvitationResponse>;

export const InvitationIdParams = z.object({
  id: z.uuid('Invitation not found'),
});

export const MemberParams = z.object({
  userId: z.uuid('Member not found'),
});

export const ChangeRoleRequest = z.strictObject({ role });
export type ChangeRoleRequest = z.infer<typeof ChangeRoleRequest>;

export const MemberResponse = z.object({ member: TeamMember });
export type MemberResponse = z.infer<typeof MemberResponse>;

export const TeamMessageResponse = z.object({ success: z.literal(true), message: z.string() });

export const InvitationTokenParams = z.object({
  token: z.string().min(1).max(200),
});

/** Where an invitation stands: only a `pending` one can be accepted. */
export const invitationStates = ['pending', 'expired', 'revoked', 'accepted'] as const;
export type InvitationState = (typeof invitationStates)[number];

/** `GET /api/invitations/:token`: what the link offers, for the page that accepts it. */
export const InvitationPreview = z.object({
  organisationName: z.string(),
  role,
  email: z.string(),
  invitedBy: z.string().nullable(),
  expiresAt: z.string(),
  state: z.enum(invitationStates),
});
export type InvitationPreview = z.infer<typeof InvitationPreview>;

/** `POST /api/invitations/:token/accept`: the person now works in the organisation. */
export const AcceptInvitationResponse = z.object({
  success: z.literal(true),
  message: z.string(),
  membership: OrganisationMembership,
});
export type AcceptInvitationResponse = z.infer<typeof AcceptInvitationResponse>;
