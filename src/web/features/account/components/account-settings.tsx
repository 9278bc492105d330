import { zodResolver } from '@hookform/resolvers/zod';
import { useId, useState, type ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import { z } from 'zod';
import {
  deleteConfirmationWord,
  EmailChangeRequest,
  notificationKinds,
  notificationLabels,
  PasswordChangeRequest,
  ProfileRequest,
  type AccountSettings,
  type NotificationSettings,
} from '#contract/account.js';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Checkbox } from '../../../components/ui/checkbox';
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogTitle,
} from '../../../components/ui/dialog';
import { FormField } from '../../../components/ui/form-field';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { Spinner } from '../../../components/ui/spinner';
import { messageOf } from '../../../lib/api-client';
import { saveFile } from '../../../lib/download';
import { paths } from '../../../lib/paths';
import { toast } from '../../../lib/toast-store';
import { exportAccountData, useDeleteAccount } from '../api/data';
import { useRequestEmailChange } from '../api/email';
import { useChangePassword } from '../api/password';
import { useRevokeSession, useSessions } from '../api/sessions';
import { useAccountSettings, useUpdateNotifications, useUpdateProfile } from '../api/settings';
import { deviceName } from '../device-name';
import { formatDateTime } from '#contract/vocabulary.js';
import { ScrollRegion } from '../../../components/scroll-region';

/** One settings section: a card with a heading the page's outline and landmarks name. */
function Section({
  id,
  title,
  description,
  children,
}: {
  id: string;
  title: string;
  description?: ReactNode;
  children: ReactNode;
}) {
  return (
    <section aria-labelledby={`${id}-heading`} className="mt-8">
      <Card>
        <h2 id={`${id}-heading`} className="text-xl font-bold">
          {title}
        </h2>
        {description && <p className="mt-1 text-slate-700">{description}</p>}
        <div className="mt-4">{children}</div>
      </Card>
    </section>
  );
}

const failed = (title: string, error: unknown, fallback = 'Please try again.') =>
  toast({ title, description: messageOf(error, fallback), variant: 'destructive' });

/**
 * The account's sections of /app/dashboard/settings: profile, e-mail, password, the browsers
 * signed in, notifications, and the account's data (export, delete). Billing is composed beside
 * them by the app.
 */
export function AccountSettingsSections() {
  const settings = useAccountSettings();
  if (settings.isPending) return <Spinner label="Loading your settings" className="mt-8" />;
  if (settings.isError) {
    return (
      <p role="alert" className="mt-8 rounded-md border border-bad p-4 text-bad">
        {messageOf(settings.error, 'Your settings could not be loaded.')}
      </p>
    );
  }
  return (
    <>
      <ProfileSection settings={settings.data} />
      <EmailSection settings={settings.data} />
      <PasswordSection settings={settings.data} />
      <SessionsSection />
      <NotificationsSection settings={settings.data} />
      <DataSection />
    </>
  );
}

function ProfileSection({ settings }: { settings: AccountSettings }) {
  const update = useUpdateProfile();
  const form = useForm<z.input<typeof ProfileRequest>, unknown, z.output<typeof ProfileRequest>>({
    resolver: zodResolver(ProfileRequest),
    defaultValues: { name: settings.name, company: settings.company ?? '' },
  });
  const { errors } = form.formState;
  const onSubmit = form.handleSubmit(async (input) => {
    try {
      await update.mutateAsync({ name: input.name, company: input.company ?? '' });
      toast({ title: 'Profile saved', variant: 'success' });
    } catch (error) {
      failed('Failed to save your profile', error);
    }
  });
  return (
    <Section id="profile" title="Profile">
      <form noValidate onSubmit={onSubmit} className="grid gap-4 sm:max-w-md">
        <FormField label="Name" error={errors.name?.message}>
          {(ids) => <Input {...ids} autoComplete="name" {...form.register('name')} />}
        </FormField>
        <FormField label="Company (optional)" error={errors.company?.message}>
          {(ids) => <Input {...ids} autoComplete="organization" {...form.register('company')} />}
        </FormField>
        <div>
          <Button type="submit" disabled={update.isPending}>
            {update.isPending ? 'Saving…' : 'Save profile'}
          </Button>
        </div>
      </form>
    </Section>
  );
}

function EmailSection({ settings }: { settings: AccountSettings }) {
  const change = useRequestEmailChange();
  const form = useForm<
    z.input<typeof EmailChangeRequest>,
    unknown,
    z.output<typeof EmailChangeRequest>
  >({
    resolver: zodResolver(EmailChangeRequest),
    defaultValues: { newEmail: '', currentPassword: '' },
  });
  const { errors } = form.formState;
  const onSubmit = form.handleSubmit(async (input) => {
    try {
      await change.mutateAsync(input);
      form.reset({ newEmail: '', currentPassword: '' });
      toast({
        title: 'Check your new inbox',
        description: `We sent a confirmation link to ${input.newEmail}. Your address changes when you open it.`,
        variant: 'success',
      });
    } catch (error) {
      failed('Failed to change your e-mail', error);
    }
  });
  return (
    <Section
      id="email"
      title="E-mail address"
      description={
        <>
          You sign in with <strong>{settings.email}</strong>.
        </>
      }
    >
      {settings.pendingEmail && (
        <p role="status" className="mb-4 rounded-md bg-brand-50 p-3 text-sm text-slate-900">
          Waiting for confirmation: open the link we sent to{' '}
          <strong>{settings.pendingEmail}</strong> to use it from now on.
        </p>
      )}
      <form noValidate onSubmit={onSubmit} className="grid gap-4 sm:max-w-md">
        <FormField label="New e-mail address" error={errors.newEmail?.message}>
          {(ids) => (
            <Input {...ids} type="email" autoComplete="email" {...form.register('newEmail')} />
          )}
        </FormField>
        {settings.hasPassword && (
          <FormField label="Current password" error={errors.currentPassword?.message}>
            {(ids) => (
              <Input
                {...ids}
                type="password"
                autoComplete="current-password"
                {...form.register('currentPassword')}
              />
            )}
          </FormField>
        )}
        <div>
          <Button type="submit" disabled={change.isPending}>
            {change.isPending ? 'Sending…' : 'Send confirmation link'}
          </Button>
        </div>
      </form>
    </Section>
  );
}

const PasswordForm = PasswordChangeRequest.extend({ confirmPassword: z.string() }).refine(
  (value) => value.newPassword === value.confirmPassword,
  { message: 'Passwords do not match', path: ['confirmPassword'] },
);

function PasswordSection({ settings }: { settings: AccountSettings }) {
  const change = useChangePassword();
  const form = useForm<z.input<typeof PasswordForm>, unknown, z.output<typeof PasswordForm>>({
    resolver: zodResolver(PasswordForm),
    defaultValues: { currentPassword: '', newPassword: '', confirmPassword: '' },
  });
  const { errors } = form.formState;
  const onSubmit = form.handleSubmit(async ({ currentPassword, newPassword }) => {
    try {
      const answer = await change.mutateAsync({ currentPassword, newPassword });
      form.reset();
      toast({
        title: 'Password changed',
        description:
          answer.signedOut > 0
            ? `Signed out of ${answer.signedOut} other ${answer.signedOut === 1 ? 'browser' : 'browsers'}.`
            : 'You stay signed in here.',
        variant: 'success',
      });
    } catch (error) {
      failed('Failed to change your password', error);
    }
  });
  if (!settings.hasPassword) {
    return (
      <Section id="password" title="Password">
        <p className="text-slate-700">
          Your account has no password yet (you sign in with Google). Choose one with{' '}
          <Link className="text-brand-600 underline" to={paths.resetPassword.getHref()}>
            Forgot your password?
          </Link>
        </p>
      </Section>
    );
  }
  return (
    <Section
      id="password"
      title="Password"
      description="Changing it signs you out of every other browser."
    >
      <form noValidate onSubmit={onSubmit} className="grid gap-4 sm:max-w-md">
        <FormField label="Current password" error={errors.currentPassword?.message}>
          {(ids) => (
            <Input
              {...ids}
              type="password"
              autoComplete="current-password"
              {...form.register('currentPassword')}
            />
          )}
        </FormField>
        <FormField
          label="New password"
          error={errors.newPassword?.message}
          hint="8 or more characters with upper and lower case, a number and one of @$!%*?&"
        >
          {(ids) => (
            <Input
              {...ids}
              type="password"
              autoComplete="new-password"
              {...form.register('newPassword')}
            />
          )}
        </FormField>
        <FormField label="Confirm new password" error={errors.confirmPassword?.message}>
          {(ids) => (
            <Input
              {...ids}
              type="password"
              autoComplete="new-password"
              {...form.register('confirmPassword')}
            />
          )}
        </FormField>
        <div>
          <Button type="submit" disabled={change.isPending}>
            {change.isPending ? 'Changing…' : 'Change password'}
          </Button>
        </div>
      </form>
    </Section>
  );
}

function SessionsSection() {
  const sessions = useSessions();
  const revoke = useRevokeSession();
  const end = async (id: string, name: string) => {
    try {
      await revoke.mutateAsync(id);
      toast({ title: 'Signed out', description: `${name} is signed out.`, variant: 'success' });
    } catch (error) {
      failed('Failed to sign out that browser', error);
    }
  };
  return (
    <Section
      id="sessions"
      title="Active sessions"
      description="The browsers signed in to your account. Sign out any you do not recognise."
    >
      {sessions.isPending && <Spinner label="Loading sessions" />}
      {sessions.isError && (
        <p role="alert" className="text-bad">
          {messageOf(sessions.error, 'Sessions could not be loaded.')}
        </p>
      )}
      {sessions.data && (
        // Scrolls sideways on a phone: focusable and named so a keyboard can scroll it.
        <ScrollRegion label="Signed-in browsers">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">Browsers signed in to your account</caption>
            <thead>
              <tr className="border-b border-slate-300">
                <th scope="col" className="py-2 pr-4">
                  Device
                </th>
                <th scope="col" className="py-2 pr-4">
                  Signed in
                </th>
                <th scope="col" className="py-2 pr-4">
                  Last seen
                </th>
                <th scope="col" className="py-2">
                  <span className="sr-only">Action</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {sessions.data.map((session) => {
                const name = deviceName(session.userAgent);
                return (
                  <tr key={session.id} className="border-b border-slate-200">
                    <td className="py-2 pr-4">
                      <span title={session.userAgent ?? undefined} className="font-semibold">
                        {name}
                      </span>
                      {session.ip && <span className="block text-slate-700">{session.ip}</span>}
                    </td>
                    <td className="py-2 pr-4">{formatDateTime(session.createdAt)}</td>
                    <td className="py-2 pr-4">{formatDateTime(session.lastSeenAt)}</td>
                    <td className="py-2">
                      {session.current ? (
                        <span className="font-semibold text-green-800">This browser</span>
                      ) : (
                        <Button
                          type="button"
                          variant="outline"
                          size="sm"
                          disabled={revoke.isPending}
                          aria-label={`Sign out ${name}, signed in ${formatDateTime(session.createdAt)}`}
                          onClick={() => void end(session.id, name)}
                        >
                          Sign out
                        </Button>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </ScrollRegion>
      )}
    </Section>
  );
}

const notificationHints: Record<keyof NotificationSettings, string> = {
  scanAlerts:
    'When a monitoring scan finds a new critical or serious issue, or the score drops by 5 or more.',
  weeklyDigest: 'Every Monday: your domains, their scores and trends.',
  billing: 'When a free month ends in 7 days, or a payment fails.',
};

function NotificationsSection({ settings }: { settings: AccountSettings }) {
  const update = useUpdateNotifications();
  const [choice, setChoice] = useState<NotificationSettings>(settings.notifications);
  const baseId = useId();
  const save = async () => {
    try {
      await update.mutateAsync(choice);
      toast({ title: 'Notification preferences saved', variant: 'success' });
    } catch (error) {
      failed('Failed to save your preferences', error);
    }
  };
  return (
    <Section
      id="notifications"
      title="E-mail notifications"
      description={`Sent to ${settings.email}. Every e-mail has a link to unsubscribe.`}
    >
      <fieldset className="grid gap-4">
        <legend className="sr-only">E-mails you want</legend>
        {notificationKinds.map((kind) => (
          <div key={kind} className="flex items-start gap-3">
            <Checkbox
              id={`${baseId}-${kind}`}
              aria-describedby={`${baseId}-${kind}-hint`}
              checked={choice[kind]}
              onCheckedChange={(checked) => setChoice({ ...choice, [kind]: checked === true })}
              className="mt-0.5"
            />
            <div>
              <Label htmlFor={`${baseId}-${kind}`}>{notificationLabels[kind]}</Label>
              <p id={`${baseId}-${kind}-hint`} className="text-sm text-slate-700">
                {notificationHints[kind]}
              </p>
            </div>
          </div>
        ))}
      </fieldset>
      <Button
        type="button"
        className="mt-4"
        disabled={update.isPending}
        onClick={() => void save()}
      >
        {update.isPending ? 'Saving…' : 'Save preferences'}
      </Button>
    </Section>
  );
}

function DataSection() {
  const [exporting, setExporting] = useState(false);
  const download = async () => {
    setExporting(true);
    try {
      const { blob, filename } = await exportAccountData();
      saveFile(blob, filename);
    } catch (error) {
      failed('Failed to export your data', error);
    } finally {
      setExporting(false);
    }
  };
  return (
    <Section
      id="data"
      title="Your data"
      description="Download a copy of everything we store about you, or delete your account."
    >
      <div className="flex flex-wrap gap-3">
        <Button
          type="button"
          variant="outline"
          disabled={exporting}
          onClick={() => void download()}
        >
          {exporting ? 'Preparing…' : 'Export my data (JSON)'}
        </Button>
        <DeleteAccountButton />
      </div>
    </Section>
  );
}

function DeleteAccountButton() {
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState('');
  const remove = useDeleteAccount();
  const navigate = useNavigate();
  const inputId = useId();
  const confirm = async () => {
    try {
      await remove.mutateAsync(typed);
      setOpen(false);
      toast({
        title: 'Account deleted',
        description: 'Your account and its data are deleted.',
        variant: 'success',
      });
      await navigate(paths.home.getHref());
    } catch (error) {
      failed('Failed to delete your account', error);
    }
  };
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) setTyped('');
      }}
    >
      <Button type="button" variant="destructive" onClick={() => setOpen(true)}>
        Delete my account
      </Button>
      <DialogContent>
        <DialogTitle>Delete your account?</DialogTitle>
        <DialogDescription>
          This cannot be undone. Monitoring stops, your public status pages and badges go, and your
          account is deleted with its scans, reports, domains, complaints, payments and sign-in
          history, as our privacy policy says.
        </DialogDescription>
        <form
          className="mt-4 grid gap-3"
          onSubmit={(event) => {
            event.preventDefault();
            if (typed === deleteConfirmationWord) void confirm();
          }}
        >
          <Label htmlFor={inputId}>Type {deleteConfirmationWord} to confirm</Label>
          <Input
            id={inputId}
            value={typed}
            autoComplete="off"
            onChange={(event) => setTyped(event.target.value)}
          />
          <div className="mt-2 flex flex-wrap justify-end gap-3">
            <DialogClose asChild>
              <Button type="button" variant="outline">
                Keep my account
              </Button>
            </DialogClose>
            <Button
              type="submit"
              variant="destructive"
              disabled={typed !== deleteConfirmationWord || remove.isPending}
            >
              {remove.isPending ? 'Deleting…' : 'Delete my account'}
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}
