import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { organisationRoles, type OrganisationRole } from '#contract/organisation.js';
import type { TeamMember } from '#contract/team.js';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { NativeSelect } from '../../../components/ui/native-select';
import { Spinner } from '../../../components/ui/spinner';
import { messageOf } from '../../../lib/api-client';
import { usePageTitle } from '../../../lib/page-title';
import { paths } from '../../../lib/paths';
import { toast } from '../../../lib/toast-store';
import {
  useChangeRole,
  useInvite,
  useOrganisations,
  useRemoveMember,
  useRevokeInvitation,
  useTeam,
} from '../api/team';
import { roleNames } from '../role-names';

const roleHelp: Record<OrganisationRole, string> = {
  owner: 'billing and members',
  admin: 'domains, complaints and the badge',
  member: 'scans and the complaints assigned to them',
  viewer: 'read-only',
};

const day = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });

const failed = (title: string, error: unknown) =>
  toast({ title, description: messageOf(error, 'Please try again.'), variant: 'destructive' });

function MemberRow({
  member,
  canManage,
  isMe,
}: {
  member: TeamMember;
  canManage: boolean;
  isMe: boolean;
}) {
  const changeRole = useChangeRole();
  const remove = useRemoveMember();
  const selectId = `role-${member.userId}`;
  const fixed = member.founder || !canManage;
  return (
    <tr className="border-t border-slate-200">
      <td className="py-2 pr-4">
        <span className="font-medium">{member.name || member.email}</span>
        {isMe && <span className="ml-1 text-slate-600">(you)</span>}
        <br />
        <span className="text-sm text-slate-700">{member.email}</span>
      </td>
      <td className="py-2 pr-4">
        {fixed ? (
          <span>
            {roleNames[member.role]}
            {member.founder && <span className="text-sm text-slate-600"> (founder)</span>}
          </span>
        ) : (
          <>
            <Label htmlFor={selectId} className="sr-only">
              Role of {member.email}
            </Label>
            <NativeSelect
              id={selectId}
              value={member.role}
              disabled={changeRole.isPending}
              onChange={(event) =>
                changeRole
                  .mutateAsync({
                    userId: member.userId,
                    role: event.target.value as OrganisationRole,
                  })
                  .then(() => toast({ title: 'Role changed', variant: 'success' }))
                  .catch((error: unknown) => failed('Could not change the role', error))
              }
            >
              {organisationRoles.map((role) => (
                <option key={role} value={role}>
                  {roleNames[role]}
                </option>
              ))}
            </NativeSelect>
          </>
        )}
      </td>
      <td className="py-2">
        {!member.founder && (canManage || isMe) && (
          <Button
            variant="outline"
            size="sm"
            disabled={remove.isPending}
            aria-label={isMe ? 'Leave this organisation' : `Remove ${member.email}`}
            onClick={() => {
              const question = isMe
                ? 'Leave this organisation? You lose access at once.'
                : `Remove ${member.email}? They lose access at once.`;
              if (!window.confirm(question)) return;
              remove
                .mutateAsync(member.userId)
                .then((answer) => toast({ title: answer.message, variant: 'success' }))
                .catch((error: unknown) => failed('Could not remove', error));
            }}
          >
            {isMe ? 'Leave' : 'Remove'}
          </Button>
        )}
      </td>
    </tr>
  );
}

function InviteForm() {
  const invite = useInvite();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<OrganisationRole>('member');
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    try {
      const answer = await invite.mutateAsync({ email, role });
      toast({ title: 'Invitation sent', description: answer.message, variant: 'success' });
      setEmail('');
    } catch (error) {
      failed('Could not invite', error);
    }
  };
  return (
    <form
      aria-label="Invite someone"
      className="mt-4 grid gap-4 sm:grid-cols-[1fr_12rem_auto] sm:items-end"
      onSubmit={(event) => void onSubmit(event)}
    >
      <div>
        <Label htmlFor="invite-email">E-mail address</Label>
        <Input
          id="invite-email"
          type="email"
          required
          autoComplete="off"
          value={email}
          onChange={(event) => setEmail(event.target.value)}
        />
      </div>
      <div>
        <Label htmlFor="invite-role">Role</Label>
        <NativeSelect
          id="invite-role"
          value={role}
          onChange={(event) => setRole(event.target.value as OrganisationRole)}
        >
          {organisationRoles.map((option) => (
            <option key={option} value={option}>
              {roleNames[option]}: {roleHelp[option]}
            </option>
          ))}
        </NativeSelect>
      </div>
      <Button type="submit" disabled={invite.isPending}>
        Send invitation
      </Button>
    </form>
  );
}

/**
 * Settings → Team: the organisation's members with their roles, invitations by e-mail and the
 * ones still open. Owners change roles, remove members, invite and withdraw; everyone sees the
 * team and may leave. Controls a role cannot use are not shown; the server enforces the same.
 */
export function TeamPage() {
  usePageTitle('Team');
  const team = useTeam();
  const organisations = useOrganisations();
  const revoke = useRevokeInvitation();
  const me = organisations.data?.active;
  const canManage = me?.role === 'owner';
  const myId = currentUserIdOf(organisations.data);

  return (
    <div className="mx-auto max-w-4xl px-4 py-8">
      <p className="text-sm">
        <Link to={paths.dashboardSettings.getHref()} className="text-brand-700 underline">
          Settings
        </Link>
      </p>
      <h1 className="mt-1 text-3xl font-bold">Team</h1>
      {team.isPending || organisations.isPending ? (
        <Spinner label="Loading the team" />
      ) : team.isError ? (
        <p role="alert" className="mt-4 text-bad">
          {messageOf(team.error, 'The team could not be loaded.')}
        </p>
      ) : (
        <>
          <p className="mt-2 text-slate-700">
            The people who work in {team.data.organisationName}. Your role here:{' '}
            <strong>{me ? roleNames[me.role] : '—'}</strong>.
          </p>
          <Card className="mt-6 p-4">
            <h2 className="text-xl font-semibold">Members</h2>
            <table className="mt-2 w-full text-left">
              <thead>
                <tr>
                  <th scope="col" className="py-2 pr-4">
                    Person
                  </th>
                  <th scope="col" className="py-2 pr-4">
                    Role
                  </th>
                  <th scope="col" className="py-2">
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {team.data.members.map((member) => (
                  <MemberRow
                    key={member.userId}
                    member={member}
                    canManage={canManage}
                    isMe={member.userId === myId}
                  />
                ))}
              </tbody>
            </table>
          </Card>
          {canManage && (
            <Card className="mt-6 p-4">
              <h2 className="text-xl font-semibold">Invite someone</h2>
              <p className="mt-1 text-sm text-slate-700">
                They get an e-mail with a link that works once, for 7 days.
              </p>
              <InviteForm />
            </Card>
          )}
          <Card className="mt-6 p-4">
            <h2 className="text-xl font-semibold">Pending invitations</h2>
            {team.data.invitations.length === 0 ? (
              <p className="mt-2 text-slate-700">No invitation is waiting for an answer.</p>
            ) : (
              <ul className="mt-2 divide-y divide-slate-200">
                {team.data.invitations.map((invitation) => (
                  <li key={invitation.id} className="flex items-center justify-between gap-4 py-2">
                    <span>
                      {invitation.email}: {roleNames[invitation.role]},{' '}
                      {invitation.expired
                        ? 'expired'
                        : `until ${day.format(new Date(invitation.expiresAt))}`}
                    </span>
                    {canManage && (
                      <Button
                        variant="outline"
                        size="sm"
                        disabled={revoke.isPending}
                        aria-label={`Withdraw the invitation to ${invitation.email}`}
                        onClick={() =>
                          revoke
                            .mutateAsync(invitation.id)
                            .then((answer) => toast({ title: answer.message, variant: 'success' }))
                            .catch((error: unknown) => failed('Could not withdraw', error))
                        }
                      >
                        Withdraw
                      </Button>
                    )}
                  </li>
                ))}
              </ul>
            )}
          </Card>
        </>
      )}
    </div>
  );
}

/** The signed-in person's id: their personal organisation's id (ADR 0025). */
function currentUserIdOf(
  data: { organisations: { organisationId: string; personal: boolean }[] } | undefined,
) {
  return data?.organisations.find((organisation) => organisation.personal)?.organisationId;
}
