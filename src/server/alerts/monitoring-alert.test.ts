import { eq } from 'drizzle-orm';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, startTestService, type TestService } from '../../../test/support/service.js';
import { domains, outboxEmails, scans, users } from '#db/schema/index.js';
import { createMailer, type Mailer } from '#email/mailer.js';
import { startAlertWorkers, type AlertWorker } from '#jobs/alerts.js';
import { createScan } from '#jobs/scan-queue.js';
import { sendScanAlert } from './service.js';
import { UnsubscribeSigner } from './unsubscribe.js';
import { setBillingAccount } from '../../../test/support/billing-account.js';

/**
 * The whole path of an alert, with real parts: the scan worker scans a fixture page in Chromium
 * for a monitoring rescan, queues the scan's alert job, and the alert worker puts one e-mail in
 * the outbox naming the new critical issue. A scan someone started by hand queues no alert.
 */

let service: TestService;
let mailer: Mailer;
let alerts: AlertWorker;
/** What the monitored page serves now; the test breaks it between two rescans. */
let image =
  '<img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" alt="Our shop" width="20" height="20">';
let ownerId: string;
const ownerEmail = 'owner@alerts.test';

const page = () =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shop</title></head>` +
  `<body><main><h1>Shop</h1><p>Welcome to the shop.</p>${image}</main></body></html>`;

beforeAll(async () => {
  service = await startTestService({
    routes: {
      '/shop.html': (_request, response) => {
        response.writeHead(200, { 'content-type': 'text/html' }).end(page());
      },
    },
  });
  const db = service.database.db;
  mailer = createMailer({
    db,
    smtpUrl: undefined,
    from: 'Conformly <no-reply@localhost>',
    log: Fastify({ logger: false }).log,
  });
  const deps = {
    db,
    mailer,
    publicUrl: 'https://conformly.example',
    signer: new UnsubscribeSigner(db, undefined),
  };
  alerts = await startAlertWorkers({
    boss: service.boss,
    scanAlert: (scanId) => sendScanAlert(deps, scanId),
    weeklyDigest: async () => undefined,
    pollingIntervalSeconds: 0.5,
  });
  const [owner] = await db
    .insert(users)
    .values({ email: ownerEmail, name: 'Owner' })
    .returning({ id: users.id });
  ownerId = owner!.id;
  await setBillingAccount(db, ownerId, { subscriptionStatus: 'active' });
  await db.insert(domains).values({
    userId: ownerId,
    domain: '127.0.0.1',
    status: 'active',
    domainIndex: 1,
    monthlyPrice: 4900,
    verifiedAt: new Date(),
    verificationMethod: 'file',
  });
});
afterAll(async () => {
  await alerts?.stop();
  await mailer?.close();
  await service?.close();
});

async function scanAndWait(origin: 'monitoring' | 'request'): Promise<string> {
  const db = service.database.db;
  const scan = await createScan(db, service.boss, {
    url: `${service.site.url}/shop.html`,
    domain: '127.0.0.1',
    userId: ownerId,
    origin,
  });
  await eventually(async () => {
    const [row] = await db.select().from(scans).where(eq(scans.id, scan.id));
    if (row?.status === 'failed') throw new Error(`scan failed: ${row.error}`);
    return row?.status === 'completed' ? true : undefined;
  });
  return scan.id;
}

const alertMails = () =>
  service.database.db.select().from(outboxEmails).where(eq(outboxEmails.to, ownerEmail));

describe('an alert after a monitoring rescan, end to end', () => {
  it('e-mails once about the new critical issue, and not for a scan started by hand', async () => {
    const first = await scanAndWait('monitoring');
    // The first rescan of the page has nothing to compare with: its alert job sends nothing.
    await eventually(async () =>
      (await service.boss.getJobById('scan-alerts', first))?.state === 'completed'
        ? true
        : undefined,
    );

    image = '<img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" width="20" height="20">';
    const rescan = await scanAndWait('monitoring');
    const [mail] = await eventually(async () => {
      const rows = await alertMails();
      return rows.length > 0 ? rows : undefined;
    });
    expect(mail!.subject).toBe('New accessibility issues on 127.0.0.1');
    expect(mail!.text).toMatch(/^- critical: .*alt.* \(img\)$/im);
    expect(mail!.text).toContain(`https://conformly.example/report/${rescan}`);
    expect(mail!.dedupeKey).toBe(`scan-alert:${rescan}`);

    const byHand = await scanAndWait('request');
    expect(await service.boss.getJobById('scan-alerts', byHand)).toBeNull();
    await eventually(async () =>
      (await service.boss.getJobById('scan-alerts', rescan))?.state === 'completed'
        ? true
        : undefined,
    );
    expect(await alertMails()).toHaveLength(1);
    expect(service.workerErrors).toEqual([]);
  });
});
