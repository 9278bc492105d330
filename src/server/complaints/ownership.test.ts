import { eq } from 'drizzle-orm';
import { ownershipProved } from '#server/billing/lifecycle.js';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestPglite } from '../../../test/support/db.js';
import { ComplaintListQuery, SubmitComplaintRequest } from '#contract/index.js';
import type { Database } from '#db/client.js';
import { domains, outboxEmails, users } from '#db/schema/index.js';
import { createMailer, type Mailer } from '#email/mailer.js';
import { DemoPaymentProvider } from '#server/billing/payments.js';
import { addDomain, archiveDomain, type DomainPlanDeps } from '../billing/domain-plans/service.js';
import { recordOwnershipCheck } from '../domains/verification-service.js';
import { HttpError } from '../http-errors.js';
import { getPublicStatus } from '../public/service.js';
import {
  getComplaint,
  listComplaints,
  reply,
  submitComplaint,
  updateStatus,
  type ComplaintActor,
  type ComplaintServiceDeps,
} from './service.js';

/**
 * Complaints belong to the verified owner of the time (ADR 0007): the security review's inbox
 * takeover (N-DOM-3) replayed with two accounts through the services a browser reaches.
 */

let database: Database;
let mailer: Mailer;
let deps: ComplaintServiceDeps;
let domainDeps: DomainPlanDeps;
const domain = 'taken-over.test';

async function addAccount(email: string, name: string) {
  const [row] = await database.db.insert(users).values({ email, name }).returning({ id: users.id });
  return { organisationId: row!.id, userId: row!.id, name, email };
}

async function verify(userId: string) {
  const [row] = await database.db
    .select()
    .from(domains)
    .where(eq(domains.userId, userId))
    .then((rows) => rows.filter((r) => r.domain === domain));
  return recordOwnershipCheck(
    {
      db: database.db,
      mailer,
      publicUrl: 'https://conformly.example',
      onOwnershipProved: ownershipProved,
    },
    row!.id,
    { verified: true, method: 'dns', error: null },
    new Date(),
  );
}

/** `owner` adds `site` and proves it controls it: its status page takes concerns. */
async function ownSite(owner: { userId: string; email: string }, site: string) {
  await addDomain(domainDeps, owner, { domain: site }, new Date());
  const [row] = await database.db.select().from(domains).where(eq(domains.domain, site));
  await recordOwnershipCheck(
    { db: database.db, onOwnershipProved: ownershipProved },
    row!.id,
    { verified: true, method: 'dns', error: null },
    new Date(),
  );
}

const submit = (name: string, message: string) =>
  submitComplaint(
    deps,
    SubmitComplaintRequest.parse({
      domain,
      name,
      email: 'visitor@example.org',
      message,
      type: 'complaint',
      priority: 'normal',
      privacyConsent: true,
    }),
  );

const inbox = (actor: ComplaintActor) => listComplaints(deps, actor, ComplaintListQuery.parse({}));

async function failure(promise: Promise<unknown>): Promise<HttpError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(HttpError);
  return error as HttpError;
}

async function mailsTo(address: string) {
  await mailer.idle();
  return database.db.select().from(outboxEmails).where(eq(outboxEmails.to, address));
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
  domainDeps = {
    db: database.db,
    payments: new DemoPaymentProvider(),
    publicUrl: 'https://conformly.example',
  };
});
afterAll(async () => {
  await mailer?.close();
  await database?.close();
});

describe('a domain that changes hands', () => {
  it("never shows the next claimant the previous owner's complaints", async () => {
    const alice = await addAccount('alice@owner.test', 'Alice');
    const bob = await addAccount('bob@claimant.test', 'Bob');

    await addDomain(domainDeps, alice, { domain }, new Date());
    // Before verification nobody can send a concern: the domain was never published.
    expect((await failure(submit('Early', 'Too early'))).statusCode).toBe(404);
    await verify(alice.userId);
    const sent = [];
    for (let n = 0; n < 28; n += 1) sent.push(await submit(`Visitor ${n}`, `Barrier ${n}`));
    expect(sent.every((filed) => !filed.waiting)).toBe(true);
    expect((await inbox(alice)).total).toBe(28);
    await archiveDomain(domainDeps, alice, domain);

    // Nobody holds it verified: a concern is kept for the next verified owner, and said so.
    const waiting = await submit('Wanda', 'Sent while nobody owns it');
    expect(waiting).toMatchObject({ waiting: true });
    expect(waiting.message).toMatch(/goes only to the next owner who proves/);

    // Bob claims the domain (free, unverified): he sees nothing, can read and answer nothing.
    await addDomain(domainDeps, bob, { domain }, new Date());
    expect((await inbox(bob)).total).toBe(0);
    const aliceFirst = sent[0]!.id;
    expect((await failure(getComplaint(deps, bob, aliceFirst))).statusCode).toBe(404);
    expect(
      (await failure(reply(deps, bob, aliceFirst, { message: 'Phone?', isInternal: false })))
        .statusCode,
    ).toBe(404);

    // Bob proves ownership: he gets the concern that waited, and still none of Alice's.
    await verify(bob.userId);
    const bobs = await inbox(bob);
    expect(bobs.complaints.map((complaint) => complaint.id)).toEqual([waiting.id]);
    expect(bobs.complaints[0]!.actionable).toBe(true);
    expect((await failure(getComplaint(deps, bob, aliceFirst))).statusCode).toBe(404);
    const told = await mailsTo(bob.email);
    expect(told.map((mail) => mail.subject)).toContain(`1 concern about ${domain} waited for you`);
    // His public page's trail shows his own complaints only.
    const status = await getPublicStatus({ db: database.db }, domain);
    expect(status.complaintSummary.total).toBe(1);

    // Alice keeps reading what was sent to her, but answering needs current ownership.
    const alices = await inbox(alice);
    expect(alices.total).toBe(28);
    expect(alices.complaints.every((complaint) => !complaint.actionable)).toBe(true);
    const refused = await failure(
      reply(deps, alice, aliceFirst, { message: 'Still here', isInternal: false }),
    );
    expect(refused.statusCode).toBe(403);
    expect(refused.message).toMatch(/You no longer hold taken-over\.test verified/);
    expect(
      (await failure(updateStatus(deps, alice, aliceFirst, { status: 'resolved' }))).statusCode,
    ).toBe(403);
    expect(await mailsTo('visitor@example.org')).toHaveLength(0);
  });

  it("keeps a visitor's name on one line in the owner's e-mail", async () => {
    const owner = await addAccount('carol@owner.test', 'Carol');
    const site = 'one-line.test';
    await ownSite(owner, site);
    const filed = await submitComplaint(
      deps,
      SubmitComplaintRequest.parse({
        domain: site,
        name: 'Eve\r\nBcc: victim@example.org\nSubject: pwned',
        email: 'eve@example.org',
        message: 'A real concern',
        type: 'complaint',
        priority: 'normal',
        privacyConsent: true,
      }),
    );
    const [mail] = await mailsTo('carol@owner.test');
    const lines = mail!.text.split('\n');
    expect(lines.filter((line) => /^(Bcc|Subject):/.test(line))).toEqual([]);
    expect(lines).toContain('From: Eve Bcc: victim@example.org Subject: pwned <eve@example.org>');
    const stored = await getComplaint(deps, owner, filed.id);
    expect(stored.complaint.submitterName).toBe('Eve Bcc: victim@example.org Subject: pwned');
  });

  it('limits how many concerns one site takes at a time, whoever sends them', async () => {
    const owner = await addAccount('dora@owner.test', 'Dora');
    const site = 'busy.test';
    await ownSite(owner, site);
    const send = () =>
      submitComplaint(
        deps,
        SubmitComplaintRequest.parse({
          domain: site,
          email: 'someone@example.org',
          message: 'Flood',
          type: 'complaint',
          priority: 'normal',
          privacyConsent: true,
        }),
        { perDomainMax: 2, windowMs: 60_000 },
      );
    await send();
    await send();
    const refused = await failure(send());
    expect([refused.statusCode, refused.message]).toEqual([
      429,
      'busy.test has received many concerns in the last few minutes; please try again later.',
    ]);
    expect((await inbox({ ...owner, name: 'Dora' })).total).toBe(2);
  });
});
