import { eq } from 'drizzle-orm';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestPglite } from '../../../test/support/db.js';
import { ComplaintListQuery, type OrganisationRole } from '#contract/index.js';
import type { Database } from '#db/client.js';
import { auditLog, domains, organisationMembers, outboxEmails, users } from '#db/schema/index.js';
import { createMailer, type Mailer } from '#email/mailer.js';
import { ForbiddenError, InvalidError } from '../http-errors.js';
import { getPublicStatus } from '../public/service.js';
import {
  assign,
  listComplaints,
  reply,
  submitComplaint,
  updateNotes,
  updateStatus,
  type ComplaintActor,
  type ComplaintServiceDeps,
} from './service.js';

/**
 * Complaints as teamwork: admins assign any member who is not a viewer, the assignee is e-mailed,
 * "assigned to me" lists theirs, a member changes only the complaints assigned to them, and the
 * public trail stays as it was.
 */

let database: Database;
let mailer: Mailer;
let deps: ComplaintServiceDeps;
const domain = 'teamwork.test';
let organisationId: string;
let owner: ComplaintActor;
let admin: ComplaintActor;
let member: ComplaintActor;
let otherMember: ComplaintActor;
let viewer: ComplaintActor;

async function account(email: string) {
  const [row] = await database.db
    .insert(users)
    .values({ email, name: email.split('@')[0]! })
    .returning({ id: users.id });
  return row!.id;
}

/** Someone working in the organisation with `role`, as the caller plugin would describe them. */
async function inOrganisation(email: string, role: OrganisationRole): Promise<ComplaintActor> {
  const userId = await account(email);
  await database.db.insert(organisationMembers).values({ organisationId, userId, role });
  return { organisationId, userId, name: email, email, role };
}

async function mailsTo(address: string) {
  await mailer.idle();
  return database.db.select().from(outboxEmails).where(eq(outboxEmails.to, address));
}

let filed = 0;
async function file() {
  filed += 1;
  const { id } = await submitComplaint(deps, {
    domain,
    email: `visitor${filed}@example.org`,
    message: `The button on page ${filed} has no name.`,
    type: 'complaint',
    priority: 'normal',
    privacyConsent: true,
  });
  return id;
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
  organisationId = await account('owner@teamwork.test');
  owner = {
    organisationId,
    userId: organisationId,
    name: 'Owner',
    email: 'owner@teamwork.test',
    role: 'owner',
  };
  await database.db.insert(domains).values({
    userId: organisationId,
    domain,
    status: 'active',
    domainIndex: 1,
    monthlyPrice: 4900,
    monitoringSince: new Date(),
    verifiedAt: new Date(),
    verificationMethod: 'dns',
  });
  admin = await inOrganisation('admin@teamwork.test', 'admin');
  member = await inOrganisation('member@teamwork.test', 'member');
  otherMember = await inOrganisation('other@teamwork.test', 'member');
  viewer = await inOrganisation('viewer@teamwork.test', 'viewer');
});
afterAll(async () => {
  await mailer?.close();
  await database?.close();
});

describe('assigning complaints in an organisation', () => {
  it('lets an admin assign a member, who is e-mailed and sees it under "assigned to me"', async () => {
    const id = await file();
    const other = await file();
    const assigned = await assign(deps, admin, id, { assignedTo: member.userId });
    expect(assigned.assignedTo).toBe(member.userId);
    const mails = await mailsTo('member@teamwork.test');
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe(`A complaint about ${domain} is assigned to you`);
    expect(mails[0]!.text).toContain('admin@teamwork.test assigned you a complaint');
    expect(mails[0]!.text).toContain('https://conformly.example/app/dashboard/complaints');

    const mine = await listComplaints(deps, member, ComplaintListQuery.parse({ assignedTo: 'me' }));
    expect(mine.complaints.map((c) => c.id)).toEqual([id]);
    const all = await listComplaints(deps, member, ComplaintListQuery.parse({}));
    expect(all.complaints.map((c) => c.id)).toEqual(expect.arrayContaining([id, other]));
    const adminsOwn = await listComplaints(
      deps,
      admin,
      ComplaintListQuery.parse({ assignedTo: 'me' }),
    );
    expect(adminsOwn.complaints).toEqual([]);

    const entries = await database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'complaint.assigned'));
    expect(entries.at(-1)).toMatchObject({
      actorLabel: 'admin@teamwork.test',
      targetId: id,
      details: expect.objectContaining({ to: member.userId, assignee: 'member@teamwork.test' }),
    });
  });

  it('refuses viewers, outsiders and members as assignees or assigners', async () => {
    const id = await file();
    await expect(assign(deps, owner, id, { assignedTo: viewer.userId })).rejects.toBeInstanceOf(
      InvalidError,
    );
    const outsider = await account('outsider@elsewhere.test');
    await expect(assign(deps, owner, id, { assignedTo: outsider })).rejects.toBeInstanceOf(
      InvalidError,
    );
    await expect(assign(deps, member, id, { assignedTo: member.userId })).rejects.toBeInstanceOf(
      ForbiddenError,
    );
    // An owner may take it, and is not e-mailed about their own choice.
    await assign(deps, owner, id, { assignedTo: owner.userId });
    const ownersMail = await mailsTo('owner@teamwork.test');
    expect(ownersMail.filter((m) => m.subject.includes('assigned to you'))).toEqual([]);
  });

  it('lets a member change only the complaints assigned to them; admins change all', async () => {
    const theirs = await file();
    const notTheirs = await file();
    await assign(deps, owner, theirs, { assignedTo: member.userId });
    await assign(deps, owner, notTheirs, { assignedTo: otherMember.userId });

    expect((await updateStatus(deps, member, theirs, { status: 'in_progress' })).status).toBe(
      'in_progress',
    );
    await updateNotes(deps, member, theirs, { notes: 'Asked the developer.' });
    await reply(deps, member, theirs, {
      message: 'We are fixing the button name this week.',
      isInternal: false,
    });
    for (const attempt of [
      () => updateStatus(deps, member, notTheirs, { status: 'resolved' }),
      () => updateNotes(deps, member, notTheirs, { notes: 'Not mine' }),
      () => reply(deps, member, notTheirs, { message: 'Hello', isInternal: false }),
    ]) {
      await expect(attempt()).rejects.toBeInstanceOf(ForbiddenError);
    }
    await expect(updateStatus(deps, viewer, theirs, { status: 'closed' })).rejects.toBeInstanceOf(
      ForbiddenError,
    );
    expect((await updateStatus(deps, admin, notTheirs, { status: 'resolved' })).status).toBe(
      'resolved',
    );
  });

  it('keeps the public trail as it was: no names of the team, only what was said and done', async () => {
    const status = await getPublicStatus({ db: database.db }, domain);
    const text = JSON.stringify(status);
    expect(text).not.toContain('member@teamwork.test');
    expect(text).not.toContain(member.userId);
  });
});
