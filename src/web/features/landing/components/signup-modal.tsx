import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { z } from 'zod';
import { Email, type SignupRequest, type SignupResponse } from '#contract/auth.js';
import { paths } from '../../../lib/paths';
import { Button } from '../../../components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogTitle,
} from '../../../components/ui/dialog';
import { FormField } from '../../../components/ui/form-field';
import { Input } from '../../../components/ui/input';
import { track } from '../../../lib/analytics';
import { ApiError, messageOf } from '../../../lib/api-client';
import { toast } from '../../../lib/toast-store';
import { isWebsiteUrl, withScheme } from '../website-url';

/**
 * The sign-up call, owned by the auth feature. Features do not import each other, so the app
 * shell hands it to the landing page (see app/router.tsx).
 */
export type UseSignup = () => {
  mutateAsync: (input: z.input<typeof SignupRequest>) => Promise<z.infer<typeof SignupResponse>>;
  isPending: boolean;
};

const signupModalSchema = z.object({
  email: Email,
  url: z
    .string()
    .trim()
    .transform(withScheme)
    .refine(isWebsiteUrl, 'Please enter a valid website URL'),
});

/** Spec §9: an existing account is sent to log in after 1 s. */
const existingAccountRedirectMs = 1000;

/**
 * The landing sign-up: an address and a website; the account is created without a password (one
 * is set from the e-mailed link) and the first scan is queued.
 */
export function SignupModal({
  open,
  onOpenChange,
  initialUrl,
  useSignup,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  initialUrl: string;
  useSignup: UseSignup;
}) {
  const navigate = useNavigate();
  const signup = useSignup();
  const form = useForm<
    z.input<typeof signupModalSchema>,
    unknown,
    z.output<typeof signupModalSchema>
  >({
    resolver: zodResolver(signupModalSchema),
    defaultValues: { email: '', url: initialUrl },
  });
  const { errors } = form.formState;

  const onSubmit = form.handleSubmit(async (input) => {
    try {
      const answer = await signup.mutateAsync({ ...input, plan: 'free', name: '' });
      track('sign_up', { method: 'landing_modal', plan_name: 'free', scan_url: input.url });
      toast({ title: 'Check your email', description: answer.message, variant: 'success' });
      onOpenChange(false);
      // Not signed in until the e-mailed link is used; this browser follows its scan meanwhile.
      void navigate(paths.report.getHref(answer.scanId));
    } catch (error) {
      if (error instanceof ApiError && error.serverMessage === 'User already exists') {
        toast({ title: 'Account already exists', description: 'Redirecting to login page...' });
        onOpenChange(false);
        setTimeout(
          () => void navigate(paths.login.getHref(input.email)),
          existingAccountRedirectMs,
        );
        return;
      }
      toast({
        title: 'Registration Error',
        description: messageOf(error, 'Failed to create account'),
        variant: 'destructive',
      });
    }
  });

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        <DialogTitle>Get your free compliance page</DialogTitle>
        <DialogDescription>
          We scan your website now and email you a link to set your password.
        </DialogDescription>
        <form noValidate onSubmit={onSubmit} className="mt-6 grid gap-4">
          <FormField label="Email" error={errors.email?.message}>
            {(ids) => (
              <Input {...ids} type="email" autoComplete="email" {...form.register('email')} />
            )}
          </FormField>
          <FormField label="Website URL" error={errors.url?.message}>
            {(ids) => (
              <Input {...ids} inputMode="url" autoComplete="url" {...form.register('url')} />
            )}
          </FormField>
          <Button type="submit" disabled={signup.isPending}>
            {signup.isPending ? 'Creating your account…' : 'Start free'}
          </Button>
        </form>
      </DialogContent>
    </Dialog>
  );
}
