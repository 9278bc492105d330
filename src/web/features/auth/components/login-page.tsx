import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
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
import { useLogin } from '../api/login';
import { safeNextPath } from '../next-path';
import { loginFormSchema } from '../schemas';
import { AuthCard } from './auth-card';
import { GoogleButton } from './google-button';
import { PasswordInput } from './password-input';

type LoginForm = z.input<typeof loginFormSchema>;

export function LoginPage() {
  usePageTitle('Log in');
  const [search] = useSearchParams();
  const navigate = useNavigate();
  const next = safeNextPath(search.get('next'));
  const login = useLogin();
  const form = useForm<LoginForm, unknown, z.output<typeof loginFormSchema>>({
    resolver: zodResolver(loginFormSchema),
    mode: 'onChange',
    defaultValues: { email: search.get('email') ?? '', password: '' },
  });
  const { errors, isValid } = form.formState;

  const [failure, setFailure] = useState<string>();
  const failureId = 'login-failure';
  /** The fields' own messages, and the failed log-in's while it stands. */
  const describedBy = (own: string | undefined) =>
    [own, failure ? failureId : undefined].filter(Boolean).join(' ') || undefined;

  const onSubmit = form.handleSubmit(async (input) => {
    setFailure(undefined);
    try {
      const answer = await login.mutateAsync(input);
      track('login', { method: 'email', user_id: answer.user.id });
      toast({
        title: 'Welcome back!',
        description: 'You have been logged in successfully.',
        variant: 'success',
      });
      await navigate(next ?? paths.dashboard.getHref());
    } catch (error) {
      const failure = loginFailure(error);
      // Inline, tied to both fields and announced once; the toast is a second channel.
      setFailure(failure.description);
      toast({ ...failure, variant: 'destructive' });
    }
  });

  return (
    <AuthCard title="Log in to your account">
      {search.get('error') === 'google' && (
        <p role="alert" className="mb-4 rounded-md border border-bad p-3 text-sm text-bad">
          Signing in with Google did not complete. Please try again or use your email.
        </p>
      )}
      <GoogleButton />
      <form noValidate onSubmit={onSubmit} className="grid gap-4">
        <FormField label="Email" error={errors.email?.message}>
          {(ids) => (
            <Input
              {...ids}
              aria-describedby={describedBy(ids['aria-describedby'])}
              type="email"
              autoComplete="email"
              {...form.register('email')}
            />
          )}
        </FormField>
        <FormField label="Password" error={errors.password?.message}>
          {(ids) => (
            <PasswordInput
              {...ids}
              aria-describedby={describedBy(ids['aria-describedby'])}
              autoComplete="current-password"
              {...form.register('password')}
            />
          )}
        </FormField>
        <div className="text-right text-sm">
          <Link to={paths.resetPassword.getHref()} className="font-medium text-brand-600 underline">
            Forgot your password?
          </Link>
        </div>
        {failure && (
          <p id={failureId} role="alert" className="text-sm font-semibold text-bad">
            {failure}
          </p>
        )}
        <Button type="submit" disabled={!isValid || login.isPending}>
          {login.isPending ? 'Logging in…' : 'Log in'}
        </Button>
      </form>
      <p className="mt-6 text-center text-sm text-slate-700">
        No account yet?{' '}
        <Link to={paths.signup.getHref({ next })} className="font-medium text-brand-600 underline">
          Sign up
        </Link>
      </p>
    </AuthCard>
  );
}

/** Spec §8, log-in. */
function loginFailure(error: unknown): { title: string; description: string } {
  if (error instanceof NetworkError) return { title: 'Login Failed', description: error.message };
  if (error instanceof ApiError) {
    if (error.status === 401) {
      return error.serverMessage === 'Invalid credentials'
        ? { title: 'Login Failed', description: 'Incorrect email or password' }
        : { title: 'Login Failed', description: 'Authentication failed' };
    }
    if (error.status === 429) {
      return { title: 'Too Many Attempts', description: 'Please wait before trying again' };
    }
    return { title: 'Login Failed', description: error.serverMessage ?? 'Login failed' };
  }
  return { title: 'Login Failed', description: 'Login failed' };
}
