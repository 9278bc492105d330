import { Link, useNavigate, useParams } from 'react-router';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Spinner } from '../../../components/ui/spinner';
import { messageOf } from '../../../lib/api-client';
import { usePageTitle } from '../../../lib/page-title';
import { paths } from '../../../lib/paths';
import { toast } from '../../../lib/toast-store';
import { useSignedInUser } from '../api/session';
import { useAcceptInvitation, useInvitation } from '../api/team';
import { roleNames } from '../role-names';

const stateWords = {
  expired: 'This invitation has expired. Ask the person who invited you for a new one.',
  revoked: 'This invitation was withdrawn. Ask the person who invited you for a new one.',
  accepted: 'This invitation has already been used.',
} as const;

/**
 * /invitations/:token: what the e-mailed link offers, and accepting it. A visitor signs in, or
 * creates an account with the invited address, and comes back here to accept.
 */
export function InvitationPage() {
  usePageTitle('Invitation');
  const { token = '' } = useParams();
  const invitation = useInvitation(token);
  const user = useSignedInUser();
  const accept = useAcceptInvitation(token);
  const navigate = useNavigate();
  const here = paths.invitation.getHref(token);

  const onAccept = async () => {
    try {
      const answer = await accept.mutateAsync();
      toast({ title: answer.message, variant: 'success' });
      await navigate(paths.dashboard.getHref());
    } catch (error) {
      toast({
        title: 'Could not accept the invitation',
        description: messageOf(error, 'Please try again.'),
        variant: 'destructive',
      });
    }
  };

  return (
    <div className="mx-auto max-w-xl px-4 py-12">
      <Card className="p-6">
        <h1 className="text-2xl font-bold">Invitation</h1>
        {invitation.isPending || user.isPending ? (
          <Spinner label="Loading the invitation" />
        ) : invitation.isError ? (
          <p role="alert" className="mt-4">
            {messageOf(invitation.error, 'This invitation link is not valid.')}
          </p>
        ) : (
          <>
            <p className="mt-4">
              {invitation.data.invitedBy ?? 'Someone'} invited{' '}
              <strong>{invitation.data.email}</strong> to work in{' '}
              <strong>{invitation.data.organisationName}</strong> as{' '}
              <strong>{roleNames[invitation.data.role].toLowerCase()}</strong>.
            </p>
            {invitation.data.state !== 'pending' ? (
              <p role="alert" className="mt-4 text-bad">
                {stateWords[invitation.data.state]}
              </p>
            ) : user.data ? (
              <div className="mt-6 space-y-3">
                <p className="text-slate-700">Signed in as {user.data.email}.</p>
                <Button onClick={() => void onAccept()} disabled={accept.isPending}>
                  Accept the invitation
                </Button>
              </div>
            ) : (
              <div className="mt-6 space-y-3">
                <p className="text-slate-700">
                  Sign in with {invitation.data.email}, or create an account with it, to accept.
                </p>
                <div className="flex flex-wrap gap-3">
                  <Button asChild>
                    <Link to={paths.login.getHref(invitation.data.email, here)}>Sign in</Link>
                  </Button>
                  <Button asChild variant="outline">
                    <Link to={paths.signup.getHref({ email: invitation.data.email, next: here })}>
                      Create an account
                    </Link>
                  </Button>
                </div>
              </div>
            )}
          </>
        )}
      </Card>
    </div>
  );
}
