import { Button } from '../../../components/ui/button';
import { googleSignInHref, useAuthProviders } from '../api/google';

/**
 * A full-page trip to the identity provider (spec §7: GET /api/auth/google/initiate), offered only
 * when the server has Google sign-in configured: without it the trip would end on an error.
 */
export function GoogleButton() {
  const providers = useAuthProviders();
  if (!providers.data?.google) return null;
  return (
    <>
      <Button asChild variant="outline" className="w-full">
        <a href={googleSignInHref}>Continue with Google</a>
      </Button>
      <div className="my-6 flex items-center gap-3 text-sm text-slate-700">
        <span aria-hidden="true" className="h-px flex-1 bg-slate-300" />
        or continue with email
        <span aria-hidden="true" className="h-px flex-1 bg-slate-300" />
      </div>
    </>
  );
}
