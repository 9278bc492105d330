import { eq } from 'drizzle-orm';
import Fastify from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openTestPglite } from '../../../test/support/db.js';
import {
  addBusinessDays,
  ComplaintListQuery,
  ComplaintReplyRequest,
  responseDeadline,
  SubmitComplaintRequest,
  type ComplaintPriority,
  type ComplaintStatus,
  type ComplaintType,
} from '#contract/index.js';
import type { Database } from '#db/client.js';
import type { DomainStatus } from '#db/schema/index.js';
import { complaints, domains, issues, outboxEmails, scans, users } from '#db/schema/index.js';
import { createMailer, type Mailer } from '#email/mailer.js';
import { InvalidError, NotFoundError } from '../http-errors.js';
import { getPublicStatus } from '../public/service.js';
import {
  assign,
  getComplaint,
  listComplaints,
  reply,
  submitComplaint,
  updateNotes,
  updateStatus,
  type ComplaintActor,
  type ComplaintServiceDeps,
} from './service.js';

/** The owner's inbox without HTTP: whose complaints, filters, search, changes, replies, trail. */

let database: Database;
let mailer: Mailer;
let deps: ComplaintServiceDeps;
let owner: ComplaintActor;
let stranger: ComplaintActor;
let formerOwner: ComplaintActor;

async function addUser(email: string, name: string): Promise<ComplaintActor> {
  const [row] = await database.db.insert(users).values({ email, name }).returning({ id: users.id });
  return { organisationId: row!.id, userId: row!.id, name };
}

async function addDomain(userId: string, domain: string, status: DomainStatus) {
  await database.db.insert(domains).values({
    userId,
    domain,
    status,
    domainIndex: 1,
    monthlyPrice: 4900,
    monitoringSince: new Date(Date.UTC(2026, 0, 1)),
    // Status pages answer only for verified domains.
    verifiedAt: new Date(Date.UTC(2026, 0, 1)),
    verificationMethod: 'dns',
  });
}

let made = 0;
async function addComplaint(
  values: Partial<typeof complaints.$inferInsert> & { domain: string },
): Promise<string> {
  made += 1;
  const [row] = await database.db
    .insert(complaints)
    .values({
      message: `Message ${made}`,
      submitterEmail: `visitor${made}@example.org`,
      subject: `Subject ${made}`,
      conversation: [],
      ...values,
    })
    .returning({ id: complaints.id });
  return row!.id;
}

const list = (actor: ComplaintActor, query: Record<string, unknown> = {}) =>
  listComplaints(deps, actor, ComplaintListQuery.parse(query));

async function row(id: string) {
  const [found] = await database.db.select().from(complaints).where(eq(complaints.id, id));
  return found!;
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
  owner = await addUser('owner@inbox.test', 'Olive Owner');
  stranger = await addUser('stranger@other.test', 'Sam Stranger');
  formerOwner = await addUser('former@inbox.test', 'Fred Former');
  await addDomain(owner.userId, 'inbox.test', 'active');
  await addDomain(owner.userId, 'second.test', 'trial');
  await addDomain(stranger.userId, 'other.test', 'active');
  // The site's former owner archived it before the current owner enrolled it.
  await addDomain(formerOwner.userId, 'inbox.test', 'archived');
});
afterAll(async () => {
  await mailer?.close();
  await database?.close();
});

describe('listing complaints', () => {
  const domain = 'second.test';
  beforeEach(async () => {
    await database.db.delete(complaints).where(eq(complaints.domain, domain));
  });

  it("lists only the complaints of the caller's own domains, newest first, with the counters", async () => {
    const entries: [ComplaintStatus, ComplaintPriority, number][] = [
      ['new', 'urgent', 1],
      ['new', 'medium', 2],
      ['in_progress', 'urgent', 3],
      ['resolved', 'urgent', 4],
      ['closed', 'low', 5],
    ];
    const ids: string[] = [];
    for (const [status, priority, n] of entries) {
      ids.push(
        await addComplaint({
          domain,
          status,
          priority,
          createdAt: new Date(Date.UTC(2026, 1, n)),
        }),
      );
    }
    await addComplaint({ domain: 'other.test', priority: 'urgent' });

    const answer = await list(owner, { domain });
    expect(answer.complaints.map((c) => c.id)).toEqual([...ids].reverse());
    expect(answer.total).toBe(5);
    // Urgent counts the urgent ones still open.
    expect(answer.counts).toEqual({ total: 5, new: 2, inProgress: 1, urgent: 2 });
    expect(answer.domains).toEqual(['inbox.test', 'second.test']);

    const strangers = await list(stranger);
    expect(strangers.complaints.every((c) => c.domain === 'other.test')).toBe(true);
    expect(strangers.complaints.map((c) => c.id)).not.toContain(ids[0]);
    // Naming someone else's domain finds nothing rather than their complaints.
    expect((await list(stranger, { domain })).total).toBe(0);
  });

  it('filters by domain, status and type, and combines them', async () => {
    const kinds: [ComplaintType, ComplaintStatus][] = [
      ['accessibility', 'new'],
      ['accessibility', 'resolved'],
      ['technical', 'new'],
      ['general', 'in_progress'],
    ];
    for (const [type, status] of kinds) await addComplaint({ domain, type, status });
    await addComplaint({ domain: 'inbox.test', type: 'accessibility', status: 'new' });

    const ofDomain = await list(owner, { domain: 'https://www.Second.test/' });
    expect(ofDomain.total).toBe(4);
    const accessibility = await list(owner, { domain, type: 'accessibility' });
    expect(accessibility.complaints.map((c) => c.status).sort()).toEqual(['new', 'resolved']);
    const fresh = await list(owner, { domain, status: 'new' });
    expect(fresh.complaints.map((c) => c.type).sort()).toEqual(['accessibility', 'technical']);
    const both = await list(owner, { domain, status: 'new', type: 'technical' });
    expect(both.total).toBe(1);
    const everywhere = await list(owner, { status: 'new', type: 'accessibility' });
    expect(new Set(everywhere.complaints.map((c) => c.domain))).toEqual(
      new Set(['inbox.test', 'second.test']),
    );
  });

  it('searches subject, message and submitter e-mail case-insensitively, wildcards taken literally', async () => {
    const bySubject = await addComplaint({ domain, subject: 'Checkout BUTTON unreachable' });
    const byMessage = await addComplaint({ domain, message: 'The button has no name' });
    const byEmail = await addComplaint({ domain, submitterEmail: 'Button.Fan@example.org' });
    await addComplaint({ domain, subject: 'Captions', message: 'Video captions missing' });
    const percent = await addComplaint({ domain, message: 'Contrast is 100% wrong' });
    const underscore = await addComplaint({ domain, message: 'Field first_name lacks a label' });
    await addComplaint({ domain, message: 'Field firstXname is fine' });
    await addComplaint({ domain: 'other.test', message: 'button of a stranger' });

    const found = await list(owner, { domain, search: 'bUtToN' });
    expect(found.complaints.map((c) => c.id).sort()).toEqual(
      [bySubject, byMessage, byEmail].sort(),
    );
    expect(found.total).toBe(3);
    expect((await list(owner, { search: 'button' })).total).toBe(3);
    expect((await list(owner, { domain, search: '%' })).complaints.map((c) => c.id)).toEqual([
      percent,
    ]);
    expect(
      (await list(owner, { domain, search: 'first_name' })).complaints.map((c) => c.id),
    ).toEqual([underscore]);
    expect((await list(owner, { domain, search: '\\' })).total).toBe(0);
  });

  it('pages with limit and offset, or limit and page, keeping the total', async () => {
    const ids: string[] = [];
    for (let n = 1; n <= 7; n += 1) {
      ids.push(await addComplaint({ domain, createdAt: new Date(Date.UTC(2026, 2, n)) }));
    }
    const newestFirst = [...ids].reverse();
    const first = await list(owner, { domain, limit: '3' });
    expect(first.complaints.map((c) => c.id)).toEqual(newestFirst.slice(0, 3));
    expect(first).toMatchObject({ total: 7, limit: 3, offset: 0 });
    const second = await list(owner, { domain, limit: 3, offset: 3 });
    expect(second.complaints.map((c) => c.id)).toEqual(newestFirst.slice(3, 6));
    const third = await list(owner, { domain, limit: 3, page: 3 });
    expect(third.complaints.map((c) => c.id)).toEqual(newestFirst.slice(6));
    expect(third).toMatchObject({ total: 7, offset: 6 });
    expect((await list(owner, { domain, page: 9 })).complaints).toEqual([]);
  });

  it("leaves a former owner without the complaints sent to the site's new owner", async () => {
    await addComplaint({ domain: 'inbox.test', message: 'For the current owner' });
    const former = await list(formerOwner);
    expect(former).toMatchObject({ total: 0, complaints: [], domains: [] });
  });
});

describe('one complaint', () => {
  let id: string;
  beforeEach(async () => {
    const filed = await submitComplaint(
      deps,
      SubmitComplaintRequest.parse({
        domain: 'inbox.test',
        name: 'Ada',
        email: `ada${++made}@example.org`,
        message: 'The menu cannot be opened with the keyboard.',
        privacyConsent: true,
        pageUrl: 'https://www.inbox.test/menu#top',
      }),
    );
    id = filed.id;
  });

  it('answers the details with the conversation, for the owner only', async () => {
    const { complaint, page } = await getComplaint(deps, owner, id);
    expect(complaint).toMatchObject({
      id,
      domain: 'inbox.test',
      status: 'new',
      pageUrl: 'https://www.inbox.test/menu',
      conversation: [
        {
          author: 'Ada',
          message: 'The menu cannot be opened with the keyboard.',
          isInternal: false,
        },
      ],
    });
    expect(page).toEqual({
      url: 'https://www.inbox.test/menu',
      scan: null,
      findings: [],
      pendingScanId: null,
    });
    for (const actor of [stranger, formerOwner]) {
      await expect(getComplaint(deps, actor, id)).rejects.toThrow(NotFoundError);
    }
    await expect(getComplaint(deps, owner, 'not-a-uuid')).rejects.toThrow('Complaint not found');
    await expect(getComplaint(deps, owner, '00000000-0000-4000-8000-000000000000')).rejects.toThrow(
      NotFoundError,
    );
  });

  it('sets any status freely; resolving dates it, reopening clears the date', async () => {
    const before = Date.now();
    const resolved = await updateStatus(deps, owner, id, { status: 'resolved' });
    expect(resolved.status).toBe('resolved');
    const resolvedAt = Date.parse(resolved.resolvedAt!);
    expect(resolvedAt).toBeGreaterThanOrEqual(before);
    const closed = await updateStatus(deps, owner, id, { status: 'closed' });
    expect(closed.resolvedAt).toBe(resolved.resolvedAt);
    const reopened = await updateStatus(deps, owner, id, { status: 'in_progress' });
    expect(reopened).toMatchObject({ status: 'in_progress', resolvedAt: null });
    const back = await updateStatus(deps, owner, id, { status: 'new' });
    expect(back.status).toBe('new');
    expect((await row(id)).status).toBe('new');
  });

  it('keeps internal notes', async () => {
    const noted = await updateNotes(deps, owner, id, { notes: 'Menu fix is in the next sprint.' });
    expect(noted.internalNotes).toBe('Menu fix is in the next sprint.');
    expect((await row(id)).internalNotes).toBe('Menu fix is in the next sprint.');
  });

  it("changes nothing for another account's call", async () => {
    const before = await row(id);
    await expect(updateStatus(deps, stranger, id, { status: 'closed' })).rejects.toThrow(
      NotFoundError,
    );
    await expect(updateNotes(deps, stranger, id, { notes: 'mine' })).rejects.toThrow(NotFoundError);
    await expect(
      reply(deps, stranger, id, ComplaintReplyRequest.parse({ message: 'Hi' })),
    ).rejects.toThrow(NotFoundError);
    await expect(assign(deps, stranger, id, { assignedTo: stranger.userId })).rejects.toThrow(
      NotFoundError,
    );
    await expect(updateStatus(deps, formerOwner, id, { status: 'closed' })).rejects.toThrow(
      NotFoundError,
    );
    expect(await row(id)).toEqual(before);
    expect(await mailsTo(before.submitterEmail)).toEqual([]);
  });

  it('is assigned to the owner or to nobody, never to another account', async () => {
    expect((await assign(deps, owner, id, { assignedTo: owner.userId })).assignedTo).toBe(
      owner.userId,
    );
    await expect(assign(deps, owner, id, { assignedTo: stranger.userId })).rejects.toThrow(
      InvalidError,
    );
    expect((await row(id)).assignedTo).toBe(owner.userId);
    expect((await assign(deps, owner, id, { assignedTo: null })).assignedTo).toBeNull();
  });

  it('e-mails a public reply to the visitor once, marks it answered and in progress', async () => {
    const visitor = (await row(id)).submitterEmail;
    const first = await reply(
      deps,
      owner,
      id,
      ComplaintReplyRequest.parse({ message: 'Thank you, we are fixing the menu.' }),
    );
    expect(first.status).toBe('in_progress');
    expect(first.answeredAt).not.toBeNull();
    expect(first.conversation.at(-1)).toMatchObject({
      author: 'Olive Owner',
      message: 'Thank you, we are fixing the menu.',
      isInternal: false,
    });
    const mails = await mailsTo(visitor);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe('Reply to your accessibility concern about inbox.test');
    expect(mails[0]!.text).toContain('Hello Ada,');
    expect(mails[0]!.text).toContain('Thank you, we are fixing the menu.');
    expect(mails[0]!.text).toContain('> The menu cannot be opened with the keyboard.');
    expect(mails[0]!.text).toContain('https://conformly.example/status/inbox.test');
    expect(mails[0]!.text).not.toContain('owner@inbox.test');

    // The first answer's date stays; a resolved complaint keeps its status on a later reply.
    await updateStatus(deps, owner, id, { status: 'resolved' });
    const second = await reply(deps, owner, id, ComplaintReplyRequest.parse({ message: 'Done.' }));
    expect(second.answeredAt).toBe(first.answeredAt);
    expect(second.status).toBe('resolved');
    expect(second.conversation).toHaveLength(3);
    expect(await mailsTo(visitor)).toHaveLength(2);
  });

  it('never e-mails an internal note, nor counts it as an answer', async () => {
    const visitor = (await row(id)).submitterEmail;
    const noted = await reply(
      deps,
      owner,
      id,
      ComplaintReplyRequest.parse({ message: 'Ask the agency about the menu.', isInternal: true }),
    );
    expect(noted).toMatchObject({ status: 'new', answeredAt: null });
    expect(noted.conversation.at(-1)).toMatchObject({ isInternal: true });
    expect(await mailsTo(visitor)).toEqual([]);
  });

  it("links the named page to the owner's latest completed scan of it and its worst findings", async () => {
    const addScan = async (values: Partial<typeof scans.$inferInsert>) => {
      const [scan] = await database.db
        .insert(scans)
        .values({
          userId: owner.userId,
          url: 'https://www.inbox.test/menu',
          domain: 'inbox.test',
          status: 'completed',
          ...values,
        })
        .returning({ id: scans.id });
      return scan!.id;
    };
    await addScan({ completedAt: new Date(Date.UTC(2026, 3, 1)), accessibilityScore: 40 });
    const latest = await addScan({
      url: 'https://www.inbox.test/menu/',
      completedAt: new Date(Date.UTC(2026, 3, 5)),
      accessibilityScore: 72,
      totalIssues: 7,
    });
    // Neither a stranger's newer scan of the page nor the owner's scan of another page counts.
    await addScan({ userId: stranger.userId, completedAt: new Date(Date.UTC(2026, 3, 9)) });
    await addScan({ url: 'https://www.inbox.test/', completedAt: new Date(Date.UTC(2026, 3, 9)) });
    const pending = await addScan({ status: 'running', completedAt: null });
    const impacts = ['minor', 'critical', 'moderate', 'serious', 'minor', 'critical', 'minor'];
    await database.db.insert(issues).values(
      impacts.map((impact, n) => ({
        scanId: latest,
        issueKey: `key-${n}`,
        title: `Finding ${n} (${impact})`,
        description: 'd',
        rule: `rule-${n}`,
        ruleKey: `rule-${n}`,
        impact: impact as 'minor',
        kind: 'violation' as const,
        confidence: 'confirmed' as const,
        selector: `#el-${n}`,
        source: 'axe' as const,
        engines: ['axe' as const],
        rules: { axe: [`rule-${n}`] },
      })),
    );

    const { page } = await getComplaint(deps, owner, id);
    expect(page?.scan).toEqual({
      id: latest,
      completedAt: new Date(Date.UTC(2026, 3, 5)).toISOString(),
      accessibilityScore: 72,
      totalIssues: 7,
    });
    expect(page?.findings.map((f) => f.impact)).toEqual([
      'critical',
      'critical',
      'serious',
      'moderate',
      'minor',
    ]);
    expect(page?.pendingScanId).toBe(pending);
    await database.db.delete(scans).where(eq(scans.domain, 'inbox.test'));
  });
});

describe('response deadlines', () => {
  it('counts business days from receipt by priority, skipping weekends', () => {
    const friday = new Date(Date.UTC(2026, 10, 20, 15));
    expect(addBusinessDays(friday, 1).toISOString()).toBe('2026-11-23T15:00:00.000Z');
    expect(responseDeadline(friday, 'urgent').toISOString()).toBe('2026-11-23T15:00:00.000Z');
    expect(responseDeadline(friday, 'high').toISOString()).toBe('2026-11-25T15:00:00.000Z');
    expect(responseDeadline(friday, 'medium').toISOString()).toBe('2026-12-01T15:00:00.000Z');
    expect(responseDeadline(friday, 'low').toISOString()).toBe('2026-12-10T15:00:00.000Z');
  });

  it('marks an open, unanswered complaint past its deadline overdue, and no other', async () => {
    const longAgo = new Date(Date.now() - 30 * 24 * 3600_000);
    const late = await addComplaint({ domain: 'inbox.test', createdAt: longAgo });
    const answered = await addComplaint({
      domain: 'inbox.test',
      createdAt: longAgo,
      answeredAt: new Date(),
    });
    const settled = await addComplaint({
      domain: 'inbox.test',
      createdAt: longAgo,
      status: 'closed',
    });
    const recent = await addComplaint({ domain: 'inbox.test', priority: 'low' });
    const overdue = async (complaintId: string) =>
      (await getComplaint(deps, owner, complaintId)).complaint.overdue;
    expect(await overdue(late)).toBe(true);
    expect(await overdue(answered)).toBe(false);
    expect(await overdue(settled)).toBe(false);
    expect(await overdue(recent)).toBe(false);
  });
});

describe('the public status trail', () => {
  it('shows when a complaint was received, answered and resolved, never its text', async () => {
    const domain = 'second.test';
    await database.db.delete(complaints).where(eq(complaints.domain, domain));
    const { id } = await submitComplaint(
      deps,
      SubmitComplaintRequest.parse({
        domain,
        name: 'Grace Hopper',
        email: 'grace@example.org',
        message: 'Secret detail: my account number is 12345.',
        privacyConsent: true,
      }),
    );
    const answered = await reply(
      deps,
      owner,
      id,
      ComplaintReplyRequest.parse({ message: 'Private answer text for Grace.' }),
    );
    const resolved = await updateStatus(deps, owner, id, { status: 'resolved' });

    const status = await getPublicStatus({ db: database.db }, domain);
    const trail = status.auditTrail.filter((e) => e.type !== 'scan' && e.type !== 'monitoring');
    expect(trail).toEqual([
      {
        type: 'resolution',
        event: 'Accessibility concern resolved',
        status: 'Resolved',
        date: resolved.resolvedAt,
        details: 'The accessibility concern was resolved.',
      },
      {
        type: 'complaint',
        event: 'Accessibility concern answered',
        status: 'Answered',
        date: answered.answeredAt,
        details: 'The owner answered the accessibility concern.',
      },
      {
        type: 'complaint',
        event: 'Accessibility concern received',
        status: 'Resolved',
        date: resolved.createdAt,
        details: 'A visitor reported an accessibility concern.',
      },
    ]);
    expect(status.complaintSummary).toEqual({ total: 1, resolved: 1, active: 0 });
    const text = JSON.stringify(status);
    for (const secret of ['12345', 'Grace', 'grace@example.org', 'Private answer']) {
      expect(text).not.toContain(secret);
    }
  });
});
