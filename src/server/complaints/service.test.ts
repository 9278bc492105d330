import { eq } from 'drizzle-orm';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestPglite } from '../../../test/support/db.js';
import { SubmitComplaintRequest, type SubmitComplaintInput } from '#contract/index.js';
import type { Database } from '#db/client.js';
import type { DomainStatus } from '#db/schema/index.js';
import { complaints, domains, outboxEmails, users } from '#db/schema/index.js';
import { createMailer, type Mailer } from '#email/mailer.js';
import { NotFoundError } from '../http-errors.js';
import { submitComplaint, type ComplaintServiceDeps } from './service.js';

/** The complaint rules without HTTP: which domains take concerns, how they are filed, who hears. */

let database: Database;
let mailer: Mailer;
let deps: ComplaintServiceDeps;

async function monitor(domain: string, ownerEmail: string, status: DomainStatus) {
  const [owner] = await database.db
    .insert(users)
    .values({ email: ownerEmail, name: 'Owner' })
    .returning({ id: users.id });
  await database.db.insert(domains).values({
    userId: owner!.id,
    domain,
    status,
    domainIndex: 1,
    monthlyPrice: 4900,
    // Verified (ADR 0007): only the status decides here whether concerns are taken.
    verifiedAt: new Date(),
    verificationMethod: 'dns',
  });
}

beforeAll(async () => {
  database = await openTestPglite();
  mailer = createMailer({
    db: database.db,
    smtpUrl: undefined,
    from: 'Conformly <no-reply@localhost>',
    log: Fastify({ logger: false }).log,
  });
  deps = { db: database.db, mailer, publicUrl: 'https://conformly.example' };
  await monitor('shop.test', 'owner@shop.test', 'trial');
  await monitor('paid.test', 'owner@paid.test', 'active');
  await monitor('late.test', 'owner@late.test', 'grace_period');
  await monitor('gone.test', 'owner@gone.test', 'expired');
  await monitor('old.test', 'owner@old.test', 'archived');
});
afterAll(async () => {
  await mailer?.close();
  await database?.close();
});

const submit = (input: SubmitComplaintInput) =>
  submitComplaint(deps, SubmitComplaintRequest.parse(input));

async function stored(id: string) {
  const [row] = await database.db.select().from(complaints).where(eq(complaints.id, id));
  return row!;
}

describe('submitComplaint', () => {
  it("files a complaint in the dashboard's vocabulary, with the visitor's message first in the thread", async () => {
    const { id } = await submit({
      domain: 'https://WWW.Shop.test/checkout',
      name: '  Ada Lovelace ',
      email: 'Ada@Example.org',
      type: 'complaint',
      priority: 'urgent',
      message: '  The checkout button cannot be reached with the keyboard. ',
      privacyConsent: true,
    });
    const row = await stored(id);
    expect(row).toMatchObject({
      domain: 'shop.test',
      type: 'accessibility',
      status: 'new',
      subject: 'Complaint from the public status page',
      message: 'The checkout button cannot be reached with the keyboard.',
      submitterEmail: 'ada@example.org',
      submitterName: 'Ada Lovelace',
      priority: 'urgent',
      assignedTo: null,
      internalNotes: null,
    });
    expect(row.conversation).toEqual([
      {
        id: expect.any(String),
        author: 'Ada Lovelace',
        message: 'The checkout button cannot be reached with the keyboard.',
        isInternal: false,
        timestamp: row.createdAt.toISOString(),
      },
    ]);
  });

  it.each([
    ['suggestion', 'normal', 'general', 'Suggestion from the public status page', 'medium'],
    ['question', 'urgent', 'general', 'Question from the public status page', 'urgent'],
    ['complaint', 'normal', 'accessibility', 'Complaint from the public status page', 'medium'],
  ] as const)(
    'maps a %s of %s priority to type %s, its subject and priority %s',
    async (type, priority, filedType, subject, filedPriority) => {
      const { id } = await submit({
        domain: 'paid.test',
        email: 'visitor@example.org',
        type,
        priority,
        message: 'Hello',
        privacyConsent: true,
      });
      expect(await stored(id)).toMatchObject({ type: filedType, subject, priority: filedPriority });
    },
  );

  it('defaults to a complaint of normal priority and names the visitor by address without a name', async () => {
    const { id } = await submit({
      domain: 'late.test',
      name: '   ',
      email: 'anon@example.org',
      message: 'Captions are missing',
      privacyConsent: true,
    });
    const row = await stored(id);
    expect(row).toMatchObject({ type: 'accessibility', priority: 'medium', submitterName: null });
    expect(row.conversation[0]?.author).toBe('anon@example.org');
  });

  it('refuses a domain nobody monitors now, storing nothing', async () => {
    const before = await database.db.$count(complaints);
    for (const domain of ['unknown.test', 'gone.test', 'old.test']) {
      const attempt = submit({
        domain,
        email: 'visitor@example.org',
        message: 'Hello',
        privacyConsent: true,
      });
      await expect(attempt, domain).rejects.toThrow(NotFoundError);
      await expect(attempt, domain).rejects.toThrow(
        'Domain Not Found: no compliance monitoring found for this domain.',
      );
    }
    expect(await database.db.$count(complaints)).toBe(before);
  });

  it("e-mails the domain's owner with the concern, the visitor's address and the dashboard link", async () => {
    const message = `The menu is unusable with a screen reader. ${'More detail. '.repeat(60)}`;
    await submit({
      domain: 'shop.test',
      name: 'Grace',
      email: 'grace@example.org',
      type: 'question',
      priority: 'urgent',
      message,
      privacyConsent: true,
    });
    await mailer.idle();
    const mails = await database.db
      .select()
      .from(outboxEmails)
      .where(eq(outboxEmails.to, 'owner@shop.test'));
    const mail = mails.find((m) => m.text.includes('grace@example.org'));
    expect(mail?.subject).toBe('New accessibility concern about shop.test');
    expect(mail?.text).toContain('Type: question');
    expect(mail?.text).toContain('Priority: urgent');
    expect(mail?.text).toContain('From: Grace <grace@example.org>');
    expect(mail?.text).toContain('The menu is unusable with a screen reader.');
    // A long message is cut to an excerpt; the whole of it is in the dashboard.
    expect(mail?.text).not.toContain(message.trim());
    expect(mail?.text).toContain('https://conformly.example/app/dashboard/complaints');
    // Nobody else hears of it.
    const others = await database.db
      .select()
      .from(outboxEmails)
      .where(eq(outboxEmails.to, 'owner@paid.test'));
    expect(others.some((m) => m.text.includes('grace@example.org'))).toBe(false);
  });
});
