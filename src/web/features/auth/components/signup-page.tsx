import { zodResolver } from '@hookform/resolvers/zod';
import { useId } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { Link, useNavigate, useSearchParams } from 'react-router';
import type { z } from 'zod';
import { paths } from '../../../lib/paths';
import { usePageTitle } from '../../../lib/page-title';
import { Button } from '../../../components/ui/button';
import { FormField } from '../../../components/ui/form-field';
import { Input } from '../../../components/ui/input';
import { track } from '../../../lib/analytics';
import { ApiError, NetworkError } from '../../../lib/api-client';
import { toast } from '../../../lib/toast-store';
import { useRegister } from '../api/register';
import { safeNextPath } from '../next-path';
import { meetsPasswordRules } from '../password-rules';
import { afterSignupPath, signupPlanOf } from '../signup-plan';
import { signupFormSchema } from '../schemas';
import { AuthCard } from './auth-card';
import { GoogleButton } from './google-button';
import { PasswordChecklist } from './password-checklist';
import { PasswordInput } from './password-input';

type SignupForm = z.input<typeof signupFormSchema>;

export function SignupPage() {
  usePageTitle('Sign up');
  const [search] = useSearchParams();
  const navigate = useNavigate();
  const register = useRegister();
  const checklistId = useId();
  const form = useForm<SignupForm, unknown, z.output<typeof signupFormSchema>>({
    resolver: zodResolver(signupFormSchema),
    mode: 'onChange',
    // An invitation's link comes with the invited address.
    defaultValues: { email: search.get('email') ?? '', password: '' },
  });
  const { errors, isValid } = form.formState;
  const password = useWatch({ control: form.control, name: 'password' });
  const websiteUrl = search.get('url');
  const next = safeNextPath(search.get('next'));
  const plan = signupPlanOf(search.get('plan'));

  const onSubmit = form.handleSubmit(async (input) => {
    try {
      const answer = await register.mutateAsync(input);
      track('sign_up', { method: 'email', plan_name: plan ?? 'free' });
      track('user_properties', { user_id: answer.user.id, plan: answer.user.plan });
      toast({ title: 'Account created!', variant: 'success' });
      // The spec goes to the dashboard; a visitor who came with a site to check expects its scan,
      // one who came from a page that needs an account (checkout) goes back to it, one who chose
      // a paid plan on the pricing page goes on to activate it.
      await navigate(afterSignupPath({ next, plan, websiteUrl }));
    } catch (error) {
      toast({ ...signupFailure(error), variant: 'destructive' });
    }
  });

  return (
    <AuthCard
      title="Create your account"
      description={
        websiteUrl ? (
          <>
            Sign up to scan <strong className="break-all">{websiteUrl}</strong>.
          </>
        ) : plan === 'pro' || plan === 'enterprise' ? (
          <>
            You chose <strong>Compliance Shield</strong>. Create your account, then add a domain to
            monitor; every new domain&apos;s first month is free.
          </>
        ) : (
          'Start your free trial: scan your site and publish your compliance page.'
        )
      }
    >
      <GoogleButton />
      <form noValidate onSubmit={onSubmit} className="grid gap-4">
        <FormField label="Email" error={errors.email?.message}>
          {(ids) => (
            <Input {...ids} type="email" autoComplete="email" {...form.register('email')} />
          )}
        </FormField>
        <FormField
          label="Password"
          error={errors.password?.message}
          hint={<PasswordChecklist id={checklistId} password={password} />}
        >
          {(ids) => (
            <PasswordInput {...ids} autoComplete="new-password" {...form.register('password')} />
          )}
        </FormField>
        <p className="text-sm text-slate-700">
          By signing up you agree to our{' '}
          <Link to={paths.terms.getHref()} className="text-brand-600 underline">
            Terms of Service
          </Link>{' '}
          and{' '}
          <Link to={paths.privacy.getHref()} className="text-brand-600 underline">
            Privacy Policy
          </Link>
          .
        </p>
        <Button
          type="submit"
          disabled={!isValid || !meetsPasswordRules(password) || register.isPending}
        >
          {register.isPending ? 'Creating account…' : 'Create account'}
        </Button>
      </form>
      <p className="mt-6 text-center text-sm text-slate-700">
        Already have an account?{' '}
        <Link
          to={paths.login.getHref(undefined, next)}
          className="font-medium text-brand-600 underline"
        >
          Log in
        </Link>
      </p>
    </AuthCard>
  );
}

/** Spec §8, sign-up form. */
function signupFailure(error: unknown): { title: string; description: string } {
  if (error instanceof NetworkError) {
    return { title: 'Registration Failed', description: error.message };
  }
  if (error instanceof ApiError) {
    if (error.status === 409) {
      return {
        title: 'Account exists',
        description: 'An account with this email already exists. Please log in instead.',
      };
    }
    if (error.status === 429) {
      return { title: 'Too Many Attempts', description: 'Please wait before trying again' };
    }
    return {
      title: 'Registration Failed',
      description: error.serverMessage ?? 'Failed to create account',
    };
  }
  return { title: 'Registration Failed', description: 'Failed to create account' };
}
