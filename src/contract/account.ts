import { z } from 'zod';
import { Email, Password } from './auth.js';

/**
 * Account settings (/app/dashboard/settings, `/api/account/...`), the welcome tour and the
 * e-mail alerts' preferences and unsubscribe links. Beyond the spec, which shows no settings
 * content (dashboard-area §2): what owners of axe Monitor or Siteimprove expect to find.
 */

export const NotificationSettings = z.object({
  /** After a monitoring rescan: the score fell by 5 or more, or a new critical or serious issue. */
  scanAlerts: z.boolean(),
  /** A weekly digest of the monitored domains: scores and trends. */
  weeklyDigest: z.boolean(),
  /** Free month ending in 7 days; a payment that failed. */
  billing: z.boolean(),
});
export type NotificationSettings = z.infer<typeof NotificationSettings>;
export type NotificationKind = keyof NotificationSettings;
/** `PUT /api/account/notifications`: every choice, and nothing else. */
export const NotificationSettingsRequest = z.strictObject(NotificationSettings.shape);
export const notificationKinds = ['scanAlerts', 'weeklyDigest', 'billing'] as const;

export const notificationLabels: Record<NotificationKind, string> = {
  scanAlerts: 'Alerts after monitoring scans',
  weeklyDigest: 'Weekly digest',
  billing: 'Trial and payment e-mails',
};

export const AccountSettings = z.object({
  email: z.string(),
  /** A new address waiting for its confirmation link to be opened. */
  pendingEmail: z.string().nullable(),
  name: z.string(),
  company: z.string().nullable(),
  hasPassword: z.boolean(),
  notifications: NotificationSettings,
  tourCompleted: z.boolean(),
});
export type AccountSettings = z.infer<typeof AccountSettings>;

export const ProfileRequest = z.strictObject({
  name: z.string().trim().min(1, 'Please enter your name').max(200, 'Name is too long'),
  company: z
    .string()
    .trim()
    .max(200, 'Company is too long')
    .transform((value) => value || null),
});
export type ProfileRequest = z.input<typeof ProfileRequest>;

/** The current password is asked when the account has one (an e-mail change moves sign-in). */
export const EmailChangeRequest = z.strictObject({
  newEmail: Email,
  currentPassword: z.string().max(256).optional(),
});
export type EmailChangeRequest = z.input<typeof EmailChangeRequest>;

export const EmailChangeConfirmRequest = z.strictObject({
  token: z.string().trim().min(1, 'No confirmation token provided').max(200),
});

export const PasswordChangeRequest = z.strictObject({
  currentPassword: z.string().min(1, 'Please enter your current password').max(256),
  newPassword: Password,
});
export type PasswordChangeRequest = z.input<typeof PasswordChangeRequest>;

export const SessionInfo = z.object({
  /** An opaque id for revoking; not the cookie, nor what the database keys it by. */
  id: z.string(),
  userAgent: z.string().nullable(),
  ip: z.string().nullable(),
  createdAt: z.string(),
  lastSeenAt: z.string(),
  current: z.boolean(),
});
export type SessionInfo = z.infer<typeof SessionInfo>;
export const SessionList = z.object({ sessions: z.array(SessionInfo) });

/** What the owner types to delete the account. */
export const deleteConfirmationWord = 'DELETE';
export const DeleteAccountRequest = z.strictObject({
  confirmation: z.literal(deleteConfirmationWord, {
    error: `Type ${deleteConfirmationWord} to confirm`,
  }),
});

export const TourRequest = z.strictObject({ outcome: z.enum(['finished', 'skipped']) });

export const AccountMessage = z.object({ success: z.boolean(), message: z.string() });

/** An unsubscribe link's token, from an e-mail, shown before (or instead of) a confirm. */
export const UnsubscribeRequest = z.object({
  token: z.string().trim().min(1, 'This unsubscribe link is not valid.').max(512),
});
/**
 * `POST /api/account/unsubscribe`: the confirm page's JSON `{token}`, or a mail client's one-click
 * form (RFC 8058: `List-Unsubscribe=One-Click`, the token in the address).
 */
export const UnsubscribeBody = z
  .strictObject({
    token: z.string().max(512).optional(),
    'List-Unsubscribe': z.literal('One-Click').optional(),
  })
  .optional();
export const UnsubscribePreview = z.object({
  kind: z.enum(notificationKinds),
  label: z.string(),
  /** The address, partly hidden: the link may have been forwarded. */
  email: z.string(),
  subscribed: z.boolean(),
});
export type UnsubscribePreview = z.infer<typeof UnsubscribePreview>;
