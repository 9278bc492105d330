import Fastify from 'fastify';
import type { Config } from '#config';
import { openDatabase, type Database } from '#db/client.js';
import { createQueue, type PgBoss } from '#jobs/boss.js';
import { startAlertWorkers, type AlertWorker } from '#jobs/alerts.js';
import { startLifecycleSweeps, type LifecycleWorker } from '#jobs/lifecycle.js';
import { createMailer, type Mailer } from '#email/mailer.js';
import {
  sendLifecycleNotices,
  sendAuditAlert,
  sendScanAlert,
  sendWeeklyDigests,
  type AlertDeps,
} from '#server/alerts/service.js';
import { UnsubscribeSigner } from '#server/alerts/unsubscribe.js';
import { startMonitoring, stopMonitoringSchedule, type MonitoringWorker } from '#jobs/monitor.js';
import { startScanWorker, type ScanWorker } from '#jobs/scan-worker.js';
import { createPagePool, findChromium, type PagePool } from '#scanner';
import { ownershipProved, sweepLifecycle } from '#server/billing/lifecycle.js';
import type { PaymentProvider } from '#server/billing/payments.js';
import { createPaymentProvider } from '#server/billing/provider-choice.js';
import { mailIssuedInvoices, useInvoiceSeller } from '#server/invoices/service.js';
import { SecretSealer } from '#server/trackers/sealer.js';
import { notifyNewIssues, notifyScanIssues, type TrackerDeps } from '#server/trackers/service.js';
import { recheckOwnership, tellReleasedClaims } from '#server/domains/verification-service.js';

/**
 * What a server or worker process runs on: the database (migrated on open), the job queue, and,
 * for processes that scan, a browser tab pool with a scan worker on it.
 */
export interface Runtime {
  database: Database;
  boss: PgBoss;
  pool: PagePool | undefined;
  worker: ScanWorker | undefined;
  /** Scheduled rescans of monitored domains (MONITOR_ENABLED), in scanning processes. */
  monitoring: MonitoringWorker | undefined;
  /** Hourly plan lifecycle runs (trial and grace ends), in scanning processes. */
  lifecycle: LifecycleWorker | undefined;
  /** Owners' alert e-mails (scan alerts, weekly digest), in scanning processes. */
  alerts: AlertWorker | undefined;
  /** The process's one payment provider: the lifecycle sweeps and the HTTP app share it. */
  payments: PaymentProvider;
  /** Stops taking jobs, lets running scans finish, then closes browser, queue and database. */
  close(): Promise<void>;
}

export async function startRuntime(config: Config, options: { scan: boolean }): Promise<Runtime> {
  const database = await openDatabase(config);
  const boss = await createQueue(database);
  const log = Fastify({ logger: { level: config.logLevel } }).log;
  const payments = createPaymentProvider({
    stripeSecretKey: config.stripeSecretKey,
    stripeWebhookSecret: config.stripeWebhookSecret,
    stripePublishableKey: config.stripePublishableKey,
    stripeApiBase: config.stripeApiBase,
    log,
  });
  // Jobs e-mail owners (alerts, plan notices) through the outbox like the HTTP app does.
  // Invoices issued in this process (a renewal in the lifecycle run) name the configured seller.
  useInvoiceSeller(config.seller);
  const mailer: Mailer = createMailer({
    db: database.db,
    smtpUrl: config.smtpUrl,
    from: config.mailFrom,
    log,
  });
  const alertDeps: AlertDeps = {
    db: database.db,
    mailer,
    publicUrl: config.publicUrl,
    signer: new UnsubscribeSigner(database.db, config.appSecret),
  };
  let pool: PagePool | undefined;
  let worker: ScanWorker | undefined;
  if (options.scan) {
    pool = createPagePool({
      size: config.scanConcurrency,
      launchOptions: { executablePath: findChromium(config.chromiumPath) },
    });
    worker = await startScanWorker({
      database,
      boss,
      pool,
      concurrency: config.scanConcurrency,
      allowPrivateTargets: config.allowPrivateTargets,
      allowedPrivateOrigins: config.allowedPrivateOrigins,
      ai: config.ai,
      monitorMaxPages: config.monitor.maxPages,
    });
  }
  // Every scanning process registers the one schedule and takes runs; pg-boss sends each cron
  // tick's run once (see startMonitoring). Turned off, the schedule is removed for all.
  let monitoring: MonitoringWorker | undefined;
  if (!config.monitor.enabled) await stopMonitoringSchedule(boss);
  else if (options.scan) {
    const verification = {
      db: database.db,
      mailer,
      publicUrl: config.publicUrl,
      onOwnershipProved: ownershipProved,
      check: {
        dnsServers: config.verificationDnsServers,
        allowPrivateNetwork: config.allowPrivateTargets,
        allowedPrivateOrigins: config.allowedPrivateOrigins,
      },
    };
    monitoring = await startMonitoring({
      database,
      boss,
      ...config.monitor,
      recheckOwnership: (domainId) => recheckOwnership(verification, domainId),
    });
  }
  // Trials and grace periods end on the hourly `domain-lifecycle` schedule, taken by whichever
  // scanning process is free; the demo provider charges renewals there, Stripe by itself.
  let lifecycle: LifecycleWorker | undefined;
  if (options.scan) {
    lifecycle = await startLifecycleSweeps({
      boss,
      sweep: async (now) => {
        const moved = await sweepLifecycle(database.db, payments, now);
        tellReleasedClaims(alertDeps, moved.released);
        // After the moves, so a grace period started by this run is told of at once.
        const notices = await sendLifecycleNotices(alertDeps, now);
        // Renewals charged by this run are invoiced in it; their e-mails go out once it is done.
        await mailIssuedInvoices(database.db, mailer, config.publicUrl, now);
        return { ...moved, notices };
      },
    });
  }
  let alerts: AlertWorker | undefined;
  const trackerDeps: TrackerDeps = {
    db: database.db,
    sealer: new SecretSealer(database.db, config.appSecret),
    publicUrl: config.publicUrl,
    allowPrivateTargets: config.allowPrivateTargets,
    allowedPrivateOrigins: config.allowedPrivateOrigins,
  };
  if (options.scan) {
    alerts = await startAlertWorkers({
      boss,
      // As for an audit: the e-mail and the webhook (ADR 0041) are told independently.
      scanAlert: async (scanId) => {
        const [mail, webhook] = await Promise.allSettled([
          sendScanAlert(alertDeps, scanId),
          notifyScanIssues(trackerDeps, scanId),
        ]);
        if (mail.status === 'rejected') throw mail.reason;
        if (webhook.status === 'rejected') throw webhook.reason;
        return { mail: mail.value, webhook: webhook.value };
      },
      // The e-mail and the organisation's webhook are told independently: one failing, the
      // other still goes.
      auditAlert: async (auditId) => {
        const [mail, webhook] = await Promise.allSettled([
          sendAuditAlert(alertDeps, auditId),
          notifyNewIssues(trackerDeps, auditId),
        ]);
        if (mail.status === 'rejected') throw mail.reason;
        if (webhook.status === 'rejected') throw webhook.reason;
        return { mail: mail.value, webhook: webhook.value };
      },
      weeklyDigest: (now) => sendWeeklyDigests(alertDeps, now),
    });
  }
  return {
    database,
    boss,
    pool,
    worker,
    monitoring,
    lifecycle,
    alerts,
    payments,
    async close() {
      await monitoring?.stop();
      await lifecycle?.stop();
      await alerts?.stop();
      await worker?.stop({ graceful: true });
      await boss.stop({ graceful: true, wait: true, timeout: 30_000 });
      await pool?.close();
      await mailer.close();
      await database.close();
    },
  };
}

/** Runs `close` once on SIGINT/SIGTERM; a second signal exits at once. */
export function closeOnSignals(close: () => Promise<void>): void {
  let closing = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (closing) process.exit(1);
    closing = true;
    console.log(`${signal}: finishing running scans, then stopping`);
    close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error('shutdown failed:', error);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
}
