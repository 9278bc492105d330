import { z } from 'zod';

/**
 * Accounts and sessions (spec public-area §5, §7, §8). Messages are the spec's, so the web forms
 * and the server refuse the same input with the same words. Requests are strict: a field a call
 * does not take is a 400 naming it, not silently dropped.
 */

export const passwordSpecialCharacters = '@$!%*?&';

/** The shared password schema: 8+ characters with upper and lower case, a digit and a symbol. */
export const Password = z
  .string()
  .min(8, 'Password must be at least 8 characters')
  .max(256, 'Password must be at most 256 characters')
  .regex(
    /^(?=.*[a-z])(?=.*[A-Z])(?=.*\d)(?=.*[@$!%*?&]).*$/,
    'Password must contain uppercase, lowercase, number, and special character',
  );

/** Addresses are compared case-insensitively, so they are kept lower-cased. */
export const Email = z
  .string()
  .trim()
  .toLowerCase()
  .max(254, 'Please enter a valid email')
  .pipe(z.email('Please enter a valid email'));

export const ResetCode = z
  .string()
  .trim()
  .regex(/^\d{6}$/, 'Code must be 6 digits');

export const RegisterRequest = z.strictObject({ email: Email, password: Password });

export const signupPlans = ['free', 'pro', 'enterprise'] as const;

/** The landing modal: no password yet; one is set from the e-mailed link. */
export const SignupRequest = z.strictObject({
  email: Email,
  url: z.string().trim().min(1, 'Please enter a valid website URL').max(2048),
  plan: z.enum(signupPlans).default('free'),
  name: z.string().trim().max(200).default(''),
});

export const LoginRequest = z.strictObject({
  email: Email,
  password: z.string().min(1, 'Password is required').max(256),
});

export const ResetPasswordRequest = z.strictObject({ email: Email });

/**
 * The code screens send only the code; the address comes from the cookie the request step set.
 * A client on another browser may name the address itself.
 */
export const VerifyResetCodeRequest = z.strictObject({ code: ResetCode, email: Email.optional() });

export const ResetPasswordCompleteRequest = z.strictObject({
  code: ResetCode,
  newPassword: Password,
  email: Email.optional(),
});

export const ResetPasswordWithTokenRequest = z.strictObject({
  token: z.string().trim().min(1, 'No reset token provided').max(200),
  newPassword: Password,
});

export const CurrentUser = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  plan: z.string(),
  subscriptionStatus: z.string(),
  emailVerified: z.boolean(),
  trialStartDate: z.string().nullable(),
  trialEndDate: z.string().nullable(),
  trialUsed: z.boolean(),
  cardAdded: z.boolean(),
  /** False for accounts made by the landing modal or Google until a password is set. */
  hasPassword: z.boolean(),
  googleLinked: z.boolean(),
  createdAt: z.string(),
});
export type CurrentUser = z.infer<typeof CurrentUser>;

/**
 * `GET /api/session`: who is signed in, or `user: null` for a visitor. The web app asks this on
 * every screen; unlike `/api/user/me` (401 when signed out, as the spec has it), a visitor's
 * answer is not an error, so no browser console logs a failed request on every public page.
 */
export const SessionResponse = z.object({ user: CurrentUser.nullable() });
export type SessionResponse = z.infer<typeof SessionResponse>;

/**
 * Answer of the calls that sign a visitor in. The session has a new CSRF token; it is included so
 * a client need not fetch it again (the spec's client refetches after a 403 anyway).
 */
export const SignedInResponse = z.object({
  success: z.literal(true),
  message: z.string(),
  user: CurrentUser,
  csrfToken: z.string(),
});

/**
 * Answer of the landing modal's sign-up. Nobody is signed in: the account is confirmed by the
 * e-mailed link, since whoever typed the address may not own it.
 */
export const SignupResponse = z.object({
  success: z.literal(true),
  message: z.string(),
  scanId: z.string(),
});

export const AuthMessageResponse = z.object({ success: z.boolean(), message: z.string() });

/**
 * `GET /api/auth/providers`: the ways to sign in this server offers, so the web app shows
 * "Continue with Google" only when Google sign-in is configured.
 */
export const AuthProviders = z.object({ google: z.boolean() });
export type AuthProviders = z.infer<typeof AuthProviders>;
