import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestPglite } from '../../test/support/db.js';
import { startSmtpSink, type SmtpSink } from '../../test/support/smtp-sink.js';
import type { Database } from '#db/client.js';
import { outboxEmails } from '#db/schema/index.js';
import { createMailer } from './mailer.js';

/** Delivery over real SMTP on 127.0.0.1, and the outbox when no SMTP server is configured. */

let database: Database;
let smtp: SmtpSink;
const logLines: Record<string, unknown>[] = [];
const logger = Fastify({
  logger: {
    level: 'info',
    stream: new Writable({
      write(chunk: Buffer, _encoding, done) {
        logLines.push(JSON.parse(chunk.toString('utf8')) as Record<string, unknown>);
        done();
      },
    }),
  },
}).log;

beforeAll(async () => {
  database = await openTestPglite();
  smtp = await startSmtpSink();
});

afterAll(async () => {
  await database?.close();
  await smtp?.close();
});

const message = (to: string) => ({
  to,
  subject: 'Your Conformly password reset code',
  text: 'Your reset code is 123456. A long line to wrap: ' + 'x'.repeat(120),
});

describe('mailer', () => {
  it('sends over SMTP and marks the outbox row sent', async () => {
    const mailer = createMailer({
      db: database.db,
      smtpUrl: smtp.url,
      from: 'Conformly <no-reply@conformly.test>',
      log: logger,
    });
    mailer.send(message('smtp@example.com'));
    const received = await smtp.next((mail) => mail.to.includes('smtp@example.com'));
    expect(received.from).toBe('no-reply@conformly.test');
    expect(received.subject).toBe('Your Conformly password reset code');
    expect(received.text).toContain('Your reset code is 123456.');
    expect(received.text).toContain('x'.repeat(120));
    await mailer.close();
    const rows = await database.db.select().from(outboxEmails);
    const row = rows.find((r) => r.to === 'smtp@example.com');
    expect(row?.sentAt).toBeInstanceOf(Date);
    expect(row?.lastError).toBeNull();
  });

  it('sends an event once, with its headers, however often a job asks', async () => {
    const mailer = createMailer({
      db: database.db,
      smtpUrl: smtp.url,
      from: 'Conformly <no-reply@conformly.test>',
      log: logger,
    });
    const alert = {
      ...message('alerts@example.com'),
      html: '<p>Hello</p>',
      headers: {
        'List-Unsubscribe': '<https://conformly.test/api/account/unsubscribe?token=abc>',
        'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
      },
      dedupeKey: 'scan-alert:test',
    };
    expect(await mailer.sendOnce(alert)).toBe(true);
    expect(await mailer.sendOnce(alert)).toBe(false);
    const received = await smtp.next((mail) => mail.to.includes('alerts@example.com'));
    // Long headers are folded onto continuation lines; unfolded, they read as sent.
    const head = received.raw.replace(/\r\n[ \t]+/g, ' ');
    expect(head).toMatch(
      /^List-Unsubscribe: <https:\/\/conformly\.test\/api\/account\/unsubscribe\?token=abc>/m,
    );
    expect(head).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click/m);
    await mailer.close();
    const rows = (await database.db.select().from(outboxEmails)).filter(
      (row) => row.to === 'alerts@example.com',
    );
    expect(rows).toHaveLength(1);
    expect(smtp.received.filter((mail) => mail.to.includes('alerts@example.com'))).toHaveLength(1);
  });

  it('without SMTP keeps the message in the outbox and logs it, so a local user can read it', async () => {
    const mailer = createMailer({
      db: database.db,
      smtpUrl: undefined,
      from: 'Conformly <no-reply@localhost>',
      log: logger,
    });
    mailer.send(message('local@example.com'));
    await mailer.idle();
    const rows = await database.db.select().from(outboxEmails);
    const row = rows.find((r) => r.to === 'local@example.com');
    expect(row).toMatchObject({ subject: 'Your Conformly password reset code', sentAt: null });
    expect(logLines).toContainEqual(
      expect.objectContaining({
        to: 'local@example.com',
        text: expect.stringContaining('123456') as unknown,
        msg: 'e-mail kept in the outbox (SMTP_URL is not set)',
      }),
    );
  });

  it('keeps the error on the outbox row when the SMTP server cannot be reached', async () => {
    const closed = await startSmtpSink();
    await closed.close();
    const mailer = createMailer({
      db: database.db,
      smtpUrl: closed.url,
      from: 'Conformly <no-reply@localhost>',
      log: logger,
    });
    mailer.send(message('unreachable@example.com'));
    await mailer.close();
    const rows = await database.db.select().from(outboxEmails);
    const row = rows.find((r) => r.to === 'unreachable@example.com');
    expect(row?.sentAt).toBeNull();
    expect(row?.lastError).toMatch(/ECONNREFUSED|connect/i);
  });
});
