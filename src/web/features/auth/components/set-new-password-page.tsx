import { zodResolver } from '@hookform/resolvers/zod';
import { CheckCircle2, ShieldAlert } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useParams } from 'react-router';
import type { z } from 'zod';
import { paths } from '../../../lib/paths';
import { usePageTitle } from '../../../lib/page-title';
import { Button } from '../../../components/ui/button';
import { ApiError, messageOf } from '../../../lib/api-client';
import { toast } from '../../../lib/toast-store';
import { useResetWithToken } from '../api/reset-password';
import { setNewPasswordSchema } from '../schemas';
import { AuthCard } from './auth-card';
import { NewPasswordFields } from './new-password-fields';

type Screen = 'form' | 'invalid' | 'success';

/** The e-mailed link's page (spec §2): the form, an invalid-link screen, or success. */
export function SetNewPasswordPage() {
  usePageTitle('Set a new password');
  const { token = '' } = useParams();
  const [screen, setScreen] = useState<Screen>('form');
  const reset = useResetWithToken();
  const form = useForm<
    z.input<typeof setNewPasswordSchema>,
    unknown,
    z.output<typeof setNewPasswordSchema>
  >({
    resolver: zodResolver(setNewPasswordSchema),
    defaultValues: { newPassword: '', confirmPassword: '' },
  });
  const { errors } = form.formState;

  if (!token.trim()) {
    return (
      <AuthCard title="Invalid Token" description="No reset token provided">
        <Button asChild className="w-full">
          <Link to={paths.resetPassword.getHref()}>Request new reset link</Link>
        </Button>
      </AuthCard>
    );
  }

  if (screen === 'invalid') {
    return (
      <AuthCard title="Invalid or expired link">
        <div className="grid gap-4">
          <ShieldAlert aria-hidden="true" className="mx-auto h-12 w-12 text-bad" />
          <p className="text-slate-700">
            This password reset link is invalid or has expired. Reset links are valid for only 30
            minutes.
          </p>
          <Button asChild>
            <Link to={paths.resetPassword.getHref()}>Request new reset link</Link>
          </Button>
          <Button asChild variant="outline">
            <Link to={paths.login.getHref()}>Back to login</Link>
          </Button>
        </div>
      </AuthCard>
    );
  }

  if (screen === 'success') {
    return (
      <AuthCard title="Password updated">
        <div className="grid gap-4 text-center">
          <CheckCircle2 aria-hidden="true" className="mx-auto h-12 w-12 text-ok" />
          <p className="text-slate-700">Your password has been changed.</p>
          <Button asChild>
            <Link to={paths.login.getHref()}>Continue to login</Link>
          </Button>
        </div>
      </AuthCard>
    );
  }

  const onSubmit = form.handleSubmit(async ({ newPassword }) => {
    try {
      await reset.mutateAsync({ token, newPassword });
      setScreen('success');
    } catch (error) {
      if (
        error instanceof ApiError &&
        error.status === 400 &&
        /Invalid or expired/.test(error.body)
      ) {
        setScreen('invalid');
        return;
      }
      toast({
        title: 'Reset Failed',
        description: messageOf(error, 'Failed to reset password'),
        variant: 'destructive',
      });
    }
  });

  return (
    <AuthCard title="Set a new password">
      <form noValidate onSubmit={onSubmit} className="grid gap-4">
        <NewPasswordFields
          password={form.register('newPassword')}
          confirm={form.register('confirmPassword')}
          errors={{
            password: errors.newPassword?.message,
            confirm: errors.confirmPassword?.message,
          }}
        />
        <Button type="submit" disabled={reset.isPending}>
          {reset.isPending ? 'Saving…' : 'Set new password'}
        </Button>
      </form>
    </AuthCard>
  );
}
