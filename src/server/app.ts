import fastifyCompress from '@fastify/compress';
import Fastify, { type FastifyInstance } from 'fastify';
import {
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type PgBoss from 'pg-boss';
import type { Config } from '#config';
import { defaultMonitorPageBudget } from '#contract/index.js';
import type { Database } from '#db/client.js';
import type { PagePool } from '#scanner';
import { createMailer, type Mailer } from '#email/mailer.js';
import { addOnRoutes } from './addons/routes.js';
import { artifactRoutes } from './artifacts/routes.js';
import { auditRoutes } from './audits/routes.js';
import { auditLogRoutes } from './audit-log/routes.js';
import { badgeRoutes } from './badges/routes.js';
import { documentRoutes, type PdfRateLimit, type UploadRateLimit } from './documents/routes.js';
import { GoogleSignIn } from './auth/google.js';
import { defaultAuthLimits, type AuthLimits } from './auth/limits.js';
import { authRoutes } from './auth/routes.js';
import { billingRoutes } from './billing/routes.js';
import { domainPlanRoutes } from './billing/domain-plans/routes.js';
import { accountBilling, ownershipProved } from './billing/lifecycle.js';
import type { PaymentProvider } from './billing/payments.js';
import { createPaymentProvider } from './billing/provider-choice.js';
import { stripeWebhookRoutes } from './billing/stripe-routes.js';
import { invoiceRoutes } from './invoices/routes.js';
import { mailIssuedInvoices, useInvoiceSeller } from './invoices/service.js';
import { ciRunRoutes } from './ci-runs/routes.js';
import { dashboardRoutes } from './dashboard/routes.js';
import { domainRoutes } from './domains/routes.js';
import { organisationRoutes } from './organisations/routes.js';
import { triageRoutes } from './triage/routes.js';
import { tokenRoutes } from './tokens/routes.js';
import {
  complaintInboxRoutes,
  complaintRoutes,
  defaultComplaintRateLimit,
  type ComplaintRateLimit,
} from './complaints/routes.js';
import type { AuditServiceDeps } from './audits/service.js';
import { accessPlugin } from './plugins/access.js';
import { callerPlugin } from './plugins/caller.js';
import { csrfPlugin } from './plugins/csrf.js';
import { errorsPlugin, redactUrl } from './plugins/errors.js';
import { openApiPlugin } from './plugins/openapi.js';
import {
  defaultScanRateLimit,
  rateLimitPlugin,
  type ScanRateLimit,
  type TokenRateLimit,
} from './plugins/rate-limit.js';
import { securityPlugin } from './plugins/security.js';
import { textInputPlugin } from './plugins/text-input.js';
import { sessionPlugin } from './plugins/session.js';
import { webPlugin } from './plugins/web.js';
import { publicRoutes } from './public/routes.js';
import { PublicVersions } from './public/versions.js';
import { scanRoutes } from './scans/routes.js';
import type { ScanServiceDeps } from './scans/service.js';
import { userRoutes } from './users/routes.js';
import { alertRoutes } from './alerts/routes.js';
import { UnsubscribeSigner } from './alerts/unsubscribe.js';
import { trackerRoutes } from './trackers/routes.js';
import { SecretSealer } from './trackers/sealer.js';
import type { TrackerDeps } from './trackers/service.js';
import type { OwnershipCheckOptions } from './domains/verification.js';
import {
  defaultVerifyRateLimit,
  verificationRoutes,
  type VerifyRateLimit,
} from './domains/verification-routes.js';

/** Account settings have defaults (loadConfig's), so callers that do not sign anyone in omit them. */
export type AppConfig = Pick<Config, 'logLevel' | 'allowPrivateTargets'> &
  Partial<
    Pick<
      Config,
      | 'allowedPrivateOrigins'
      | 'publicUrl'
      | 'secureCookies'
      | 'trustProxy'
      | 'sessionTtlHours'
      | 'smtpUrl'
      | 'mailFrom'
      | 'google'
      | 'stripeSecretKey'
      | 'stripeWebhookSecret'
      | 'stripePublishableKey'
      | 'stripeApiBase'
      | 'verificationDnsServers'
      | 'appSecret'
      | 'monitor'
      | 'seller'
      | 'ai'
    >
  >;

/** What the app is given rather than creating, so tests hand in their own database and queue. */
export interface AppDeps {
  database: Database;
  /** The job queue scans are sent to (workers may run in this process or elsewhere). */
  boss: PgBoss;
  /** The built web app; unset or missing on disk means the API alone. */
  webRoot?: string;
  scanRateLimit?: ScanRateLimit;
  /** Requests one API token may make per window, on every route together. */
  tokenRateLimit?: TokenRateLimit;
  /** Statement PDFs one address may print per window. */
  pdfRateLimit?: PdfRateLimit;
  /** OpenACR files one address may upload per window. */
  uploadRateLimit?: UploadRateLimit;
  /** Concerns one visitor address may send from public status pages per window. */
  complaintRateLimit?: ComplaintRateLimit;
  /** Tests shorten how long analyze/raw-scan wait and how often they look. */
  scanWaits?: Pick<ScanServiceDeps, 'waitForScanMs' | 'pollMs'>;
  /** This process's browser tabs (page discovery renders the homepage); none means no discovery. */
  pool?: PagePool;
  /** Tests shorten how long audit calls wait and how often they look. */
  auditWaits?: Pick<AuditServiceDeps, 'waitForAuditMs' | 'pollMs'>;
  /** Where e-mails go; by default SMTP when config.smtpUrl is set, else the outbox and the log. */
  mailer?: Mailer;
  /** Tests tighten or loosen the brute-force limits. */
  authLimits?: Partial<AuthLimits>;
  /** Where payments go; by default the demo provider, which charges nothing and says so. */
  payments?: PaymentProvider;
  /** Ownership checks one account may ask for per window. */
  verifyRateLimit?: VerifyRateLimit;
  /** Tests point ownership checks at a fixture site's ports. */
  verification?: Pick<OwnershipCheckOptions, 'ports' | 'timeoutMs'>;
  /** Tests shorten the webhook's retry waits. */
  trackers?: Pick<TrackerDeps, 'webhookRetryDelaysMs'>;
}

/**
 * A JSON body of the scan API is a URL or a short list of them. Larger bodies are refused before
 * parsing; an area that takes uploads (VPAT) sets its own limit on its route.
 */
export const bodyLimitBytes = 16 * 1024;

/**
 * The service as a Fastify app: shared plugins first (errors, security headers, CSRF, rate limits),
 * then one plugin per area. Each area registers with its own options, so areas stay encapsulated
 * and a new one is one more `register` call.
 */
export async function buildApp(config: AppConfig, deps: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    logger: {
      level: config.logLevel,
      // Query strings carry e-mail addresses and tokens; logs keep only the path.
      serializers: {
        req: (request) => ({
          method: request.method,
          url: redactUrl(request.url),
          host: request.host,
          remoteAddress: request.ip,
        }),
      },
    },
    bodyLimit: bodyLimitBytes,
    return503OnClosing: true,
    // Only the listed proxies may say who the caller is; limits count per caller address.
    trustProxy: config.trustProxy?.length ? config.trustProxy : false,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  await app.register(errorsPlugin);
  // br or gzip for every text answer over 1 KB (the web app's scripts above all); never SSE.
  await app.register(fastifyCompress, { global: true, threshold: 1024 });
  // Before any route: the API description learns each route as it is added.
  await app.register(openApiPlugin, { publicUrl: config.publicUrl ?? 'http://localhost:3000' });
  await app.register(textInputPlugin);
  await app.register(securityPlugin, {
    servedOverHttps: config.secureCookies ?? config.publicUrl?.startsWith('https:') ?? false,
  });
  await app.register(sessionPlugin, {
    db: deps.database.db,
    ttlHours: config.sessionTtlHours ?? 24 * 7,
    secureCookies: config.secureCookies ?? false,
  });
  await app.register(csrfPlugin, { secureCookies: config.secureCookies ?? false });
  await app.register(callerPlugin, { db: deps.database.db });
  await app.register(accessPlugin);
  await app.register(rateLimitPlugin, { tokenLimit: deps.tokenRateLimit });

  const publicUrl = config.publicUrl ?? 'http://localhost:3000';
  const scanDeps: ScanServiceDeps = {
    db: deps.database.db,
    publicUrl,
    boss: deps.boss,
    allowPrivateTargets: config.allowPrivateTargets,
    allowedPrivateOrigins: config.allowedPrivateOrigins,
    ...deps.scanWaits,
  };
  await app.register(scanRoutes, {
    deps: scanDeps,
    rateLimit: deps.scanRateLimit ?? defaultScanRateLimit,
  });
  await app.register(auditRoutes, {
    deps: {
      db: deps.database.db,
      boss: deps.boss,
      pool: deps.pool,
      allowPrivateTargets: config.allowPrivateTargets,
      allowedPrivateOrigins: config.allowedPrivateOrigins,
      ...deps.auditWaits,
    },
    rateLimit: deps.scanRateLimit ?? defaultScanRateLimit,
  });
  // Public answers and badges are confirmed from versions kept in memory while notified.
  const versions = await PublicVersions.watch(deps.database, (error) =>
    app.log.warn({ err: error }, 'public versions are read per request: LISTEN failed'),
  );
  app.addHook('onClose', () => versions.close());
  await app.register(publicRoutes, { deps: { db: deps.database.db }, versions });
  await app.register(badgeRoutes, { deps: { db: deps.database.db }, versions });

  const mailer =
    deps.mailer ??
    createMailer({
      db: deps.database.db,
      smtpUrl: config.smtpUrl,
      from: config.mailFrom ?? 'Conformly <no-reply@localhost>',
      log: app.log,
    });
  // A charge or refund issues its invoice inside the purchase's transaction; it is e-mailed once
  // that has committed: after each API change (a purchase, a webhook), after the answer. The
  // outbox's dedupe key sends each once.
  const invoiceMailing = new Set<Promise<void>>();
  app.addHook('onResponse', async (request, reply) => {
    // Only after a call that can charge: the others issue no invoice to mail.
    if (!request.routeOptions.config.charges || reply.statusCode >= 300) return;
    const run = mailIssuedInvoices(deps.database.db, mailer, publicUrl)
      .then(() => undefined)
      .catch((error: unknown) =>
        app.log.warn({ err: error }, 'invoice e-mails could not be queued'),
      )
      .finally(() => invoiceMailing.delete(run));
    invoiceMailing.add(run);
  });
  app.addHook('onClose', async () => {
    await Promise.all(invoiceMailing);
  });
  // E-mails still being sent are finished before the database they are recorded in closes.
  app.addHook('onClose', async () => (deps.mailer ? mailer.idle() : mailer.close()));
  await app.register(authRoutes, {
    deps: {
      db: deps.database.db,
      mailer,
      scans: scanDeps,
      publicUrl,
      limits: { ...defaultAuthLimits, ...deps.authLimits },
    },
    google: config.google
      ? new GoogleSignIn({
          ...config.google,
          redirectUri: `${publicUrl}/api/auth/google/callback`,
        })
      : undefined,
    secureCookies: config.secureCookies ?? false,
    billingOf: (organisationId) => accountBilling(deps.database.db, organisationId),
    appSecret: config.appSecret,
  });
  await app.register(complaintRoutes, {
    deps: { db: deps.database.db, mailer, publicUrl },
    rateLimit: deps.complaintRateLimit ?? defaultComplaintRateLimit,
  });
  await app.register(complaintInboxRoutes, { deps: { db: deps.database.db, mailer, publicUrl } });
  const payments =
    deps.payments ??
    createPaymentProvider({
      stripeSecretKey: config.stripeSecretKey,
      stripeWebhookSecret: config.stripeWebhookSecret,
      stripePublishableKey: config.stripePublishableKey,
      stripeApiBase: config.stripeApiBase,
      log: app.log,
    });
  await app.register(billingRoutes, {
    deps: {
      db: deps.database.db,
      mailer,
      publicUrl,
      payments,
      boss: deps.boss,
      aiConfigured: config.ai !== undefined,
    },
    publishableKey: config.stripePublishableKey,
  });
  useInvoiceSeller(config.seller);
  await app.register(invoiceRoutes, {
    deps: {
      db: deps.database.db,
      payments,
      mailer,
      publicUrl,
      ...(deps.pool ? { pool: deps.pool } : {}),
    },
  });
  await app.register(addOnRoutes, {
    deps: {
      db: deps.database.db,
      payments,
      aiConfigured: config.ai !== undefined,
      ...(deps.pool ? { pool: deps.pool } : {}),
    },
  });
  await app.register(domainPlanRoutes, {
    deps: { db: deps.database.db, payments, publicUrl, boss: deps.boss },
  });
  await app.register(domainRoutes, {
    deps: { db: deps.database.db, publicUrl },
    monitoring: {
      db: deps.database.db,
      boss: deps.boss,
      pageBudget: config.monitor?.maxPages ?? defaultMonitorPageBudget,
    },
  });
  await app.register(dashboardRoutes, { deps: { db: deps.database.db, publicUrl } });
  await app.register(ciRunRoutes, { deps: { db: deps.database.db, publicUrl } });
  await app.register(stripeWebhookRoutes, { db: deps.database.db, payments });
  await app.register(verificationRoutes, {
    deps: {
      db: deps.database.db,
      mailer,
      publicUrl,
      onOwnershipProved: ownershipProved,
      check: {
        dnsServers: config.verificationDnsServers,
        allowPrivateNetwork: config.allowPrivateTargets,
        allowedPrivateOrigins: config.allowedPrivateOrigins,
        ...deps.verification,
      },
    },
    rateLimit: deps.verifyRateLimit ?? defaultVerifyRateLimit,
  });
  await app.register(organisationRoutes, { deps: { db: deps.database.db, mailer, publicUrl } });
  await app.register(userRoutes, {
    deps: { db: deps.database.db, mailer, publicUrl, payments },
  });
  await app.register(alertRoutes, {
    deps: {
      db: deps.database.db,
      signer: new UnsubscribeSigner(deps.database.db, config.appSecret),
    },
  });
  await app.register(auditLogRoutes, { deps: { db: deps.database.db } });
  await app.register(trackerRoutes, {
    deps: {
      db: deps.database.db,
      sealer: new SecretSealer(deps.database.db, config.appSecret),
      publicUrl,
      allowPrivateTargets: config.allowPrivateTargets,
      allowedPrivateOrigins: config.allowedPrivateOrigins,
      ...deps.trackers,
    },
  });
  await app.register(tokenRoutes, { deps: { db: deps.database.db } });
  await app.register(triageRoutes, { deps: { db: deps.database.db, mailer, publicUrl } });
  await app.register(artifactRoutes, { db: deps.database.db });
  await app.register(documentRoutes, {
    deps: { db: deps.database.db, ...(deps.pool ? { pool: deps.pool } : {}) },
    publicUrl,
    ...(deps.pdfRateLimit ? { pdfRateLimit: deps.pdfRateLimit } : {}),
    ...(deps.uploadRateLimit ? { uploadRateLimit: deps.uploadRateLimit } : {}),
  });

  await app.register(webPlugin, { root: deps.webRoot });
  return app;
}
