import { zodResolver } from '@hookform/resolvers/zod';
import { ArrowLeft, CheckCircle2 } from 'lucide-react';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import type { z } from 'zod';
import { paths } from '../../../lib/paths';
import { usePageTitle } from '../../../lib/page-title';
import { Button } from '../../../components/ui/button';
import { FormField } from '../../../components/ui/form-field';
import { Input } from '../../../components/ui/input';
import { messageOf } from '../../../lib/api-client';
import { toast } from '../../../lib/toast-store';
import { useCompleteReset, useRequestResetCode, useVerifyResetCode } from '../api/reset-password';
import { resetCodeSchema, resetEmailSchema, resetNewPasswordSchema } from '../schemas';
import { NewPasswordFields } from './new-password-fields';

type Step = 'email' | 'code' | 'password' | 'success';

/** Spec §2: email, 6-digit code, new password, then success; each step can go back one. */
export function ResetPasswordPage() {
  usePageTitle('Reset your password');
  const [step, setStep] = useState<Step>('email');
  const [email, setEmail] = useState('');
  const [code, setCode] = useState('');

  if (step === 'email') {
    return (
      <EmailStep
        initialEmail={email}
        onSent={(sentTo) => {
          setEmail(sentTo);
          setStep('code');
        }}
      />
    );
  }
  if (step === 'code') {
    return (
      <CodeStep
        email={email}
        onBack={() => setStep('email')}
        onVerified={(verified) => {
          setCode(verified);
          setStep('password');
        }}
      />
    );
  }
  if (step === 'password') {
    return (
      <PasswordStep code={code} onBack={() => setStep('code')} onDone={() => setStep('success')} />
    );
  }
  return (
    <StepCard title="Password reset" focusKey="success">
      <div className="grid gap-4 text-center">
        <CheckCircle2 aria-hidden="true" className="mx-auto h-12 w-12 text-ok" />
        <p className="text-slate-700">
          Your password has been changed. You can now log in with your new password.
        </p>
        <Button asChild>
          <Link to={paths.login.getHref(email)}>Continue to Login</Link>
        </Button>
      </div>
    </StepCard>
  );
}

/** Each step's heading takes focus, so a screen reader hears that the step changed. */
function StepCard({
  title,
  description,
  focusKey,
  children,
}: {
  title: string;
  description?: ReactNode;
  focusKey: string;
  children: ReactNode;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  const first = useRef(true);
  useEffect(() => {
    if (first.current && focusKey === 'email') {
      first.current = false;
      return;
    }
    heading.current?.focus();
  }, [focusKey]);
  return (
    <div className="mx-auto w-full max-w-md px-4 py-12">
      <div className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
        <h1 ref={heading} tabIndex={-1} className="text-2xl font-bold focus:outline-none">
          {title}
        </h1>
        {description && <p className="mt-2 text-slate-700">{description}</p>}
        <div className="mt-6">{children}</div>
      </div>
    </div>
  );
}

function BackButton({ onClick, children }: { onClick: () => void; children: ReactNode }) {
  return (
    <Button type="button" variant="link" className="px-0" onClick={onClick}>
      <ArrowLeft aria-hidden="true" className="h-4 w-4" />
      {children}
    </Button>
  );
}

function EmailStep({
  initialEmail,
  onSent,
}: {
  initialEmail: string;
  onSent: (email: string) => void;
}) {
  const request = useRequestResetCode();
  const form = useForm<
    z.input<typeof resetEmailSchema>,
    unknown,
    z.output<typeof resetEmailSchema>
  >({ resolver: zodResolver(resetEmailSchema), defaultValues: { email: initialEmail } });
  const onSubmit = form.handleSubmit(async ({ email }) => {
    try {
      await request.mutateAsync({ email });
      toast({
        title: 'Code sent',
        description: `If an account exists for ${email}, a 6-digit code is on its way.`,
      });
      onSent(email);
    } catch (error) {
      toast({
        title: 'Request Failed',
        description: messageOf(error, 'Failed to send reset code'),
        variant: 'destructive',
      });
    }
  });
  return (
    <StepCard
      title="Reset your password"
      description="Enter the email of your account and we will send you a 6-digit code."
      focusKey="email"
    >
      <form noValidate onSubmit={onSubmit} className="grid gap-4">
        <FormField label="Email" error={form.formState.errors.email?.message}>
          {(ids) => (
            <Input {...ids} type="email" autoComplete="email" {...form.register('email')} />
          )}
        </FormField>
        <Button type="submit" disabled={request.isPending}>
          {request.isPending ? 'Sending…' : 'Send reset code'}
        </Button>
        <Link
          to={paths.login.getHref()}
          className="inline-flex items-center gap-2 text-sm font-semibold text-brand-600 underline"
        >
          <ArrowLeft aria-hidden="true" className="h-4 w-4" />
          Back to login
        </Link>
      </form>
    </StepCard>
  );
}

function CodeStep({
  email,
  onBack,
  onVerified,
}: {
  email: string;
  onBack: () => void;
  onVerified: (code: string) => void;
}) {
  const verify = useVerifyResetCode();
  const form = useForm<z.input<typeof resetCodeSchema>, unknown, z.output<typeof resetCodeSchema>>({
    resolver: zodResolver(resetCodeSchema),
    defaultValues: { code: '' },
  });
  const onSubmit = form.handleSubmit(async ({ code }) => {
    try {
      await verify.mutateAsync({ code });
      onVerified(code);
    } catch (error) {
      toast({
        title: 'Verification Failed',
        description: messageOf(error, 'Invalid code'),
        variant: 'destructive',
      });
    }
  });
  return (
    <StepCard
      title="Enter your code"
      description={
        <>
          We sent a 6-digit code to <strong className="break-all">{email}</strong>.
        </>
      }
      focusKey="code"
    >
      <form noValidate onSubmit={onSubmit} className="grid gap-4">
        <FormField label="6-digit code" error={form.formState.errors.code?.message}>
          {(ids) => (
            <Input
              {...ids}
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={6}
              className="tracking-[0.5em]"
              {...form.register('code')}
            />
          )}
        </FormField>
        <Button type="submit" disabled={verify.isPending}>
          {verify.isPending ? 'Checking…' : 'Verify code'}
        </Button>
        <BackButton onClick={onBack}>Back to email</BackButton>
      </form>
    </StepCard>
  );
}

function PasswordStep({
  code,
  onBack,
  onDone,
}: {
  code: string;
  onBack: () => void;
  onDone: () => void;
}) {
  const complete = useCompleteReset();
  const form = useForm<
    z.input<typeof resetNewPasswordSchema>,
    unknown,
    z.output<typeof resetNewPasswordSchema>
  >({
    resolver: zodResolver(resetNewPasswordSchema),
    defaultValues: { password: '', confirmPassword: '' },
  });
  const { errors } = form.formState;
  const onSubmit = form.handleSubmit(async ({ password }) => {
    try {
      await complete.mutateAsync({ code, newPassword: password });
      onDone();
    } catch (error) {
      toast({
        title: 'Reset Failed',
        description: messageOf(error, 'Failed to reset password'),
        variant: 'destructive',
      });
    }
  });
  return (
    <StepCard title="Choose a new password" focusKey="password">
      <form noValidate onSubmit={onSubmit} className="grid gap-4">
        <NewPasswordFields
          password={form.register('password')}
          confirm={form.register('confirmPassword')}
          errors={{
            password: errors.password?.message,
            confirm: errors.confirmPassword?.message,
          }}
        />
        <Button type="submit" disabled={complete.isPending}>
          {complete.isPending ? 'Saving…' : 'Reset password'}
        </Button>
        <BackButton onClick={onBack}>Back to code</BackButton>
      </form>
    </StepCard>
  );
}
