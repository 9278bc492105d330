import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AuthMessageResponse,
  AuthProviders,
  LoginRequest,
  NoFieldsRequest,
  RegisterRequest,
  ResetPasswordCompleteRequest,
  ResetPasswordRequest,
  ResetPasswordWithTokenRequest,
  SignedInResponse,
  SignupRequest,
  SignupResponse,
  VerifyResetCodeRequest,
} from '#contract/index.js';
import { UnauthorizedError } from '../http-errors.js';
import { emptyResponse } from '../plugins/openapi.js';
import {
  decodePending,
  encodePending,
  notConfigured,
  type GoogleClaims,
  type GoogleSignIn,
} from './google.js';
import * as reset from './password-reset.js';
import { ResetCookieSealer } from './reset-cookie.js';
import type { UserRecord } from './repo.js';
import * as service from './service.js';
import { sessionCsrfToken } from './sessions.js';
import { hashToken, newToken } from './tokens.js';

export interface AuthRoutesOptions {
  deps: service.AuthServiceDeps;
  /** Unset when GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET are not both configured. */
  google: GoogleSignIn | undefined;
  secureCookies: boolean;
  /** APP_SECRET: the reset cookie is sealed under a key of it (else of a database secret). */
  appSecret?: string | undefined;
  /** The organisation's plan state for the signed-in answer (the billing area's reader). */
  billingOf: (organisationId: string) => Promise<service.SessionBilling>;
}

/** Remembers, for the code screens, which address the reset code was sent to (sealed). */
const resetCookieName = 'conformly_reset';
/** State, nonce and PKCE verifier of a Google sign-in under way. */
const googleCookieName = 'conformly_google';
/** A random id per browser, kept a year; accounts it signed in to trust it (limits.ts). */
const deviceCookieName = 'conformly_device';
const deviceCookieDays = 365;
const authCookiePath = '/api/auth';

const deviceTokenOf = (request: FastifyRequest): string | undefined => {
  const value = request.cookies[deviceCookieName];
  return value && /^[A-Za-z0-9_-]{43}$/.test(value) ? value : undefined;
};

const caller = (request: FastifyRequest): service.AuthCaller => {
  const device = deviceTokenOf(request);
  return {
    ip: request.ip,
    userAgent: request.headers['user-agent'] ?? null,
    deviceHash: device ? hashToken(device) : undefined,
    clientId: request.clientId,
    session: request.session,
  };
};

/** What the landing modal tells the visitor; the account waits for its e-mailed link. */
export const signupMessage =
  'Check your e-mail: open the link we sent to confirm your address and choose a password.';

/** The accounts API of spec public-area §7; the rules are in service.ts and password-reset.ts. */
export const authRoutes: FastifyPluginAsyncZod<AuthRoutesOptions> = async (app, options) => {
  const { deps } = options;
  const resetCookies = new ResetCookieSealer(deps.db, options.appSecret);
  const cookieOptions = (request: FastifyRequest, maxAgeSeconds?: number) => ({
    path: authCookiePath,
    httpOnly: true,
    sameSite: 'lax' as const,
    secure: options.secureCookies || request.protocol === 'https',
    ...(maxAgeSeconds === undefined ? {} : { maxAge: maxAgeSeconds }),
  });

  /**
   * The browser has shown it belongs to `user` (signed in, or read the account's e-mail): from now
   * on guesses at the account's password elsewhere never hold this browser back.
   */
  async function trustThisBrowser(request: FastifyRequest, reply: FastifyReply, user: UserRecord) {
    let device = deviceTokenOf(request);
    if (!device) {
      device = newToken();
      reply.setCookie(deviceCookieName, device, cookieOptions(request, deviceCookieDays * 86_400));
    }
    await service.trustDevice(deps, caller(request), user, device);
  }

  /** Starts a session under a new id; the answer carries the session's CSRF token. */
  async function signIn(request: FastifyRequest, reply: FastifyReply, user: UserRecord) {
    await trustThisBrowser(request, reply, user);
    const session = await app.sessions.start(request, reply, user.id);
    reply.header('cache-control', 'no-store');
    return {
      success: true as const,
      user: service.toCurrentUser(
        session.user,
        await options.billingOf(session.organisationId ?? session.user.id),
      ),
      csrfToken: sessionCsrfToken(session),
    };
  }

  const tags = ['Account'];

  app.post(
    '/api/auth/register',
    {
      schema: {
        operationId: 'register',
        summary: 'Create an account with a password and sign in',
        tags,
        body: RegisterRequest,
        response: { 201: SignedInResponse },
      },
    },
    async (request, reply) => {
      const user = await service.register(deps, caller(request), request.body);
      const signedIn = await signIn(request, reply, user);
      return reply.status(201).send({ ...signedIn, message: 'Account created!' });
    },
  );

  app.post(
    '/api/auth/signup',
    {
      schema: {
        operationId: 'signUpFromScan',
        summary: 'Sign up from a scan: the account waits for its e-mailed link',
        tags,
        body: SignupRequest,
        response: { 201: SignupResponse },
      },
    },
    async (request, reply) => {
      const { scanId } = await service.signup(deps, caller(request), request.body);
      // Nobody is signed in: the e-mailed link proves the address first.
      return reply.status(201).send({ success: true, scanId, message: signupMessage });
    },
  );

  app.post(
    '/api/auth/login',
    {
      schema: {
        operationId: 'logIn',
        summary: 'Log in; the answer carries the session and its CSRF token',
        tags,
        body: LoginRequest,
        response: { 200: SignedInResponse },
      },
    },
    async (request, reply) => {
      const user = await service.login(deps, caller(request), request.body);
      return { ...(await signIn(request, reply, user)), message: 'Logged in' };
    },
  );

  app.post(
    '/api/auth/logout',
    {
      schema: {
        operationId: 'logOut',
        summary: 'Log out',
        tags,
        body: NoFieldsRequest,
        response: { 200: AuthMessageResponse },
      },
    },
    async (request, reply) => {
      const session = request.session;
      await app.sessions.end(request, reply);
      if (session) {
        await service.logEvent(deps, caller(request), {
          event: 'logout',
          success: true,
          email: session.user.email,
          userId: session.userId,
        });
      }
      return { success: true, message: 'Logged out' };
    },
  );

  app.post(
    '/api/auth/reset-password-request',
    {
      schema: {
        operationId: 'requestPasswordReset',
        summary: 'E-mail a password reset code and link',
        tags,
        body: ResetPasswordRequest,
        response: { 200: AuthMessageResponse },
      },
    },
    async (request, reply) => {
      await reset.requestPasswordReset(deps, caller(request), request.body.email);
      // Set for every address, known or not, so the answer gives nothing away; sealed, so the
      // cookie does not show the address to whoever reads the browser's cookies.
      const expiresAt = new Date(Date.now() + reset.resetCodeMinutes * 60_000);
      reply.setCookie(
        resetCookieName,
        await resetCookies.seal(request.body.email, expiresAt),
        cookieOptions(request, reset.resetCodeMinutes * 60),
      );
      return {
        success: true,
        message: 'If an account exists for this email, a reset code has been sent to it.',
      };
    },
  );

  const resetEmailOf = async (request: FastifyRequest, fromBody: string | undefined) =>
    fromBody ?? (await resetCookies.open(request.cookies[resetCookieName]));

  app.post(
    '/api/auth/verify-reset-code',
    {
      schema: {
        operationId: 'verifyResetCode',
        summary: 'Check an e-mailed reset code',
        tags,
        body: VerifyResetCodeRequest,
        response: { 200: AuthMessageResponse },
      },
    },
    async (request) => {
      const email = await resetEmailOf(request, request.body.email);
      await reset.verifyResetCode(deps, caller(request), email, request.body.code);
      return { success: true, message: 'Code verified' };
    },
  );

  app.post(
    '/api/auth/reset-password-complete',
    {
      schema: {
        operationId: 'completePasswordReset',
        summary: 'Choose a new password with the e-mailed code',
        tags,
        body: ResetPasswordCompleteRequest,
        response: { 200: AuthMessageResponse },
      },
    },
    async (request, reply) => {
      const user = await reset.completeResetWithCode(deps, caller(request), {
        email: await resetEmailOf(request, request.body.email),
        code: request.body.code,
        newPassword: request.body.newPassword,
      });
      reply.clearCookie(resetCookieName, cookieOptions(request));
      await trustThisBrowser(request, reply, user);
      return { success: true, message: 'Password reset successfully' };
    },
  );

  app.post(
    '/api/auth/reset-password',
    {
      schema: {
        operationId: 'resetPasswordWithLink',
        summary: "Choose a new password with the e-mailed link's token",
        tags,
        body: ResetPasswordWithTokenRequest,
        response: { 200: AuthMessageResponse },
      },
    },
    async (request, reply) => {
      const user = await reset.completeResetWithToken(deps, caller(request), request.body);
      await trustThisBrowser(request, reply, user);
      return { success: true, message: 'Password reset successfully' };
    },
  );

  app.get(
    '/api/auth/providers',
    {
      schema: {
        operationId: 'listSignInProviders',
        summary: 'Which sign-in providers are configured',
        tags,
        response: { 200: AuthProviders },
      },
    },
    async (): Promise<AuthProviders> => ({ google: options.google !== undefined }),
  );

  const googleInitiate = {
    operationId: 'startGoogleSignIn',
    summary: 'Start signing in with Google (a browser redirect)',
    description: 'Answers 404 when Google sign-in is not configured.',
    tags,
    response: { 302: emptyResponse("Off to Google's sign-in page.") },
  };
  app.get('/api/auth/google/initiate', { schema: googleInitiate }, async (request, reply) => {
    if (!options.google) throw notConfigured();
    const { url, pending } = await options.google.start();
    reply.setCookie(googleCookieName, encodePending(pending), cookieOptions(request, 10 * 60));
    return reply.header('cache-control', 'no-store').redirect(url.href, 302);
  });

  const googleCallback = {
    operationId: 'finishGoogleSignIn',
    summary: 'Where Google sends the browser back (OAuth code and state)',
    description: 'Signs the browser in and redirects to the dashboard, or back to log-in.',
    tags,
    response: { 302: emptyResponse('To /app/dashboard, or /app/login?error=google.') },
  };
  app.get('/api/auth/google/callback', { schema: googleCallback }, async (request, reply) => {
    if (!options.google) throw notConfigured();
    const pending = decodePending(request.cookies[googleCookieName]);
    reply.clearCookie(googleCookieName, cookieOptions(request));
    reply.header('cache-control', 'no-store');
    const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
    // The visitor is in a full-page redirect: failures go back to the log-in screen, not JSON.
    const failed = () => reply.redirect('/app/login?error=google', 302);
    let claims: GoogleClaims;
    try {
      if (!pending) throw new Error('the sign-in was not started from this browser');
      claims = await options.google.finish(query, pending);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      request.log.warn({ reason }, 'Google sign-in failed');
      await service.logEvent(deps, caller(request), {
        event: 'google_login',
        success: false,
        details: { reason },
      });
      return failed();
    }
    try {
      const user = await service.signInWithGoogle(deps, caller(request), claims);
      await trustThisBrowser(request, reply, user);
      await app.sessions.start(request, reply, user.id);
    } catch (error) {
      if (error instanceof UnauthorizedError) return failed();
      throw error;
    }
    return reply.redirect('/app/dashboard', 302);
  });
};
