import { eq } from 'drizzle-orm';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestPglite } from '../../../test/support/db.js';
import { seedDomain } from '../../../test/support/dashboard-seed.js';
import type { Impact, Issue, OrganisationRole, PageScanResult } from '#contract/index.js';
import type { Database } from '#db/client.js';
import { auditLog, organisationMembers, outboxEmails, users } from '#db/schema/index.js';
import { insertScan, markRunning, storeResult } from '#db/stores/scans.js';
import { readSiteStanding } from '#db/stores/site-standing.js';
import { createMailer, type Mailer } from '#email/mailer.js';
import { ForbiddenError, InvalidError, NotFoundError } from '../http-errors.js';
import {
  acceptanceEnd,
  changeTriage,
  listDomainTriage,
  readTriageHistory,
  type TriageActor,
  type TriageServiceDeps,
} from './service.js';

/**
 * Triage as a site team uses it: states set on one issue or a selection with what each needs,
 * the complaints rule for who may change what, every change in the history and the audit log,
 * the assignee e-mailed, and scans moving triaged issues to fixed and back to re-opened.
 */

let database: Database;
let mailer: Mailer;
let deps: TriageServiceDeps;
const site = 'triage.test';
const page = `https://${site}/`;
let organisationId: string;
let owner: TriageActor;
let admin: TriageActor;
let member: TriageActor;
let otherMember: TriageActor;
let viewer: TriageActor;

async function account(email: string) {
  const [row] = await database.db
    .insert(users)
    .values({ email, name: email.split('@')[0]! })
    .returning({ id: users.id });
  return row!.id;
}

async function inOrganisation(email: string, role: OrganisationRole): Promise<TriageActor> {
  const userId = await account(email);
  await database.db.insert(organisationMembers).values({ organisationId, userId, role });
  return { organisationId, userId, name: email, email, role };
}

function issue(id: string, impact: Impact = 'serious', engines: Issue['engines'] = ['axe']): Issue {
  return {
    id,
    ruleKey: `rule-${id}`,
    title: `Problem ${id}`,
    description: `Description of ${id}`,
    wcag: ['1.1.1'],
    level: 'A',
    impact,
    kind: 'violation',
    confidence: 'confirmed',
    selector: `#${id}`,
    html: `<img id="${id}">`,
    helpUrl: '',
    engines,
    rules: { axe: [`axe-${id}`] },
    findings: [],
  };
}

/** A finished scan of the page by the organisation, stored as the scan worker stores it. */
async function scanFinding(
  found: Issue[],
  engineErrors: PageScanResult['engineErrors'] = {},
  where = { domain: site, url: page },
) {
  const { domain, url } = where;
  const scan = await insertScan(database.db, { url, domain, userId: organisationId });
  await markRunning(database.db, scan.id, scan.id, 0);
  const result: PageScanResult = {
    url,
    finalUrl: url,
    title: 'Home',
    startedAt: new Date().toISOString(),
    finishedAt: new Date().toISOString(),
    engines: ['axe', 'pa11y', 'ibm'],
    engineVersions: { axe: '4', pa11y: '9', ibm: '4' },
    engineErrors,
    processingTimes: { load: 1, axe: 1, pa11y: 1, ibm: 1, total: 4 },
    issues: found,
    summary: {
      violations: { critical: 0, serious: found.length, moderate: 0, minor: 0 },
      totalViolations: found.length,
      needsReview: 0,
      bestPractice: 0,
      byEngine: { axe: found.length, pa11y: 0, ibm: 0 },
      corroborated: 0,
    },
    score: { value: 80, label: 'Good' },
    screenshots: [],
    raw: {
      meta: { url, scanId: scan.id, timestamp: new Date().toISOString() },
    } as PageScanResult['raw'],
  };
  expect(await storeResult(database.db, scan.id, result, '')).toBe(true);
  return scan.id;
}

async function stateOf(key: string) {
  const { triage } = await listDomainTriage(deps, owner, site, {});
  return triage.find((row) => row.issueKey === key)?.state;
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
  organisationId = await account('owner@triage.test');
  owner = { organisationId, userId: organisationId, name: 'Owner', email: 'owner@triage.test' };
  await seedDomain(database.db, organisationId, { domain: site, index: 1 });
  admin = await inOrganisation('admin@triage.test', 'admin');
  member = await inOrganisation('member@triage.test', 'member');
  otherMember = await inOrganisation('other@triage.test', 'member');
  viewer = await inOrganisation('viewer@triage.test', 'viewer');
  await scanFinding(['a1', 'a2', 'a3', 'a4', 'a5', 'a6'].map((id) => issue(id)));
}, 120_000);
afterAll(() => database?.close());

describe('setting triage states', () => {
  it('marks a false positive with its note, in the history and the audit log', async () => {
    const { triage } = await changeTriage(deps, owner, site, {
      action: 'false_positive',
      issueKeys: ['a1'],
      note: 'The image is decorative and hidden from assistive technology',
    });
    expect(triage).toMatchObject([
      {
        issueKey: 'a1',
        state: 'false_positive',
        note: 'The image is decorative and hidden from assistive technology',
        title: 'Problem a1',
        ruleKey: 'rule-a1',
        impact: 'serious',
        updatedBy: { id: organisationId, email: 'owner@triage.test' },
      },
    ]);
    const history = await readTriageHistory(deps, viewer, site, 'a1');
    expect(history.events).toMatchObject([
      { fromState: null, toState: 'false_positive', actor: { id: organisationId } },
    ]);
    const entries = await database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'issue.triaged'));
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ actorLabel: 'owner@triage.test', targetId: site });
    expect(JSON.stringify(entries[0]!.details)).toContain('Problem a1');
  });

  it('accepts a selection with a reason and an end date, and re-opens it once that has passed', async () => {
    const until = new Date(Date.now() + 86_400_000 * 2).toISOString().slice(0, 10);
    const { triage } = await changeTriage(deps, admin, site, {
      action: 'accept',
      issueKeys: ['a2', 'a3'],
      reason: 'Third-party widget, replaced next quarter',
      until,
    });
    expect(triage.map((row) => [row.issueKey, row.state, row.reason])).toEqual(
      expect.arrayContaining([
        ['a2', 'accepted', 'Third-party widget, replaced next quarter'],
        ['a3', 'accepted', 'Third-party widget, replaced next quarter'],
      ]),
    );
    expect(triage[0]!.acceptedUntil).toBe(`${until}T00:00:00.000Z`);
    // Three days on, the acceptance has ended: a read re-opens it, by no person.
    const later = await changeTriage(
      deps,
      admin,
      site,
      { action: 'assign', issueKeys: ['a2'], assigneeId: null },
      new Date(Date.now() + 86_400_000 * 3),
    );
    expect(later.triage[0]).toMatchObject({ issueKey: 'a2', state: 'reopened' });
    const history = await readTriageHistory(deps, owner, site, 'a3');
    expect(history.events.at(-1)).toMatchObject({
      fromState: 'accepted',
      toState: 'reopened',
      actor: null,
      note: `The acceptance ended on ${until}`,
    });
  });

  it('refuses what a change needs but lacks, and issues the domain never had', async () => {
    await expect(
      changeTriage(deps, owner, site, {
        action: 'accept',
        issueKeys: ['a4'],
        reason: 'x',
        until: '2020-01-01',
      }),
    ).rejects.toThrow(InvalidError);
    await expect(
      changeTriage(deps, owner, site, {
        action: 'false_positive',
        issueKeys: ['a4', 'nothing-like-it'],
        note: 'n',
      }),
    ).rejects.toThrow(new NotFoundError(`Issue not found on ${site}: nothing-like-it`));
    await expect(
      changeTriage(deps, owner, 'not-ours.test', { action: 'open', issueKeys: ['a4'] }),
    ).rejects.toThrow(NotFoundError);
    // Nothing of the refused selection was stored.
    expect(await stateOf('a4')).toBeUndefined();
    expect(() => acceptanceEnd('2020-01-01')).toThrow('must end after today');
  });
});

describe('who may change what', () => {
  it('lets admins assign a member who is not a viewer, e-mails them and lists it as theirs', async () => {
    await expect(
      changeTriage(deps, admin, site, {
        action: 'assign',
        issueKeys: ['a5'],
        assigneeId: viewer.userId,
      }),
    ).rejects.toThrow(InvalidError);
    await expect(
      changeTriage(deps, member, site, {
        action: 'assign',
        issueKeys: ['a5'],
        assigneeId: member.userId,
      }),
    ).rejects.toThrow(ForbiddenError);

    const { triage } = await changeTriage(deps, admin, site, {
      action: 'assign',
      issueKeys: ['a5'],
      assigneeId: member.userId,
    });
    expect(triage[0]).toMatchObject({
      state: 'open',
      assignee: { id: member.userId, email: 'member@triage.test' },
    });
    const mails = await mailsTo('member@triage.test');
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe(`An accessibility issue on ${site} is assigned to you`);
    expect(mails[0]!.text).toContain('Problem a5');
    expect(mails[0]!.text).toContain(`https://conformly.example/app/dashboard/domains/${site}`);

    const mine = await listDomainTriage(deps, member, site, { assignedTo: 'me' });
    expect(mine.triage.map((row) => row.issueKey)).toEqual(['a5']);
    expect((await listDomainTriage(deps, otherMember, site, { assignedTo: 'me' })).triage).toEqual(
      [],
    );
  });

  it('lets a member change what is theirs or nobody’s, never another’s; viewers nothing', async () => {
    await expect(
      changeTriage(deps, otherMember, site, { action: 'open', issueKeys: ['a5'] }),
    ).rejects.toThrow(ForbiddenError);
    await expect(
      changeTriage(deps, viewer, site, { action: 'open', issueKeys: ['a6'] }),
    ).rejects.toThrow(ForbiddenError);
    await changeTriage(deps, member, site, {
      action: 'false_positive',
      issueKeys: ['a5'],
      note: 'Hidden behind a feature flag nobody can switch on',
    });
    await changeTriage(deps, otherMember, site, { action: 'open', issueKeys: ['a6'] });
    expect(await stateOf('a5')).toBe('false_positive');
    expect(await stateOf('a6')).toBe('open');
  });
});

describe('the triage list', () => {
  it('lists the issues found now with their state and places, by state or assigned to me', async () => {
    const all = await listDomainTriage(deps, viewer, site, {});
    expect(all.issues.map((issue) => [issue.issueKey, issue.state])).toEqual(
      expect.arrayContaining([
        ['a1', 'false_positive'],
        ['a4', 'open'],
        ['a5', 'false_positive'],
      ]),
    );
    const a4 = all.issues.find((issue) => issue.issueKey === 'a4')!;
    expect(a4).toMatchObject({ triage: null, kind: 'violation', wcag: ['1.1.1'] });
    expect(a4.places).toEqual([
      expect.objectContaining({ url: page, selector: '#a4', html: '<img id="a4">' }),
    ]);
    const falsePositives = await listDomainTriage(deps, viewer, site, { state: 'false_positive' });
    expect(falsePositives.issues.map((issue) => issue.issueKey).sort()).toEqual(['a1', 'a5']);
    const mine = await listDomainTriage(deps, member, site, { assignedTo: 'me' });
    expect(mine.issues.map((issue) => issue.issueKey)).toEqual(['a5']);
    // A token reads the list but has no "me".
    expect(
      (await listDomainTriage(deps, { organisationId }, site, { assignedTo: 'me' })).issues,
    ).toEqual([]);
  });
});

describe('triage carried across scans', () => {
  it('marks triaged issues gone from a full rescan fixed and re-opens them when seen again', async () => {
    // a1 false positive, a2/a3 re-opened, a5 false positive, a6 open. Rescan without a3 and a6.
    const rescan = await scanFinding(['a1', 'a2', 'a4', 'a5'].map((id) => issue(id)));
    expect(await stateOf('a3')).toBe('fixed');
    expect(await stateOf('a6')).toBe('fixed');
    expect(await stateOf('a2')).toBe('reopened');
    // A false positive stays one: the judgement was about the element.
    expect(await stateOf('a1')).toBe('false_positive');
    expect((await readTriageHistory(deps, owner, site, 'a6')).events.at(-1)).toMatchObject({
      fromState: 'open',
      toState: 'fixed',
      actor: null,
      sourceScanId: rescan,
    });

    const back = await scanFinding(['a1', 'a2', 'a4', 'a5', 'a6'].map((id) => issue(id)));
    expect(await stateOf('a6')).toBe('reopened');
    expect(await stateOf('a3')).toBe('fixed');
    const [row] = (await listDomainTriage(deps, owner, site, { state: 'reopened' })).triage.filter(
      (r) => r.issueKey === 'a6',
    );
    expect(row).toMatchObject({ fixedAt: null, updatedBy: null });
    expect(row!.lastSeenAt).not.toBeNull();
    expect((await readTriageHistory(deps, owner, site, 'a6')).events.at(-1)).toMatchObject({
      fromState: 'fixed',
      toState: 'reopened',
      actor: null,
      sourceScanId: back,
    });
  });

  it('does not call an issue fixed when the engine that found it failed on the rescan', async () => {
    await scanFinding(
      ['a1', 'a4', 'a5', 'a6'].map((id) => issue(id)),
      { axe: 'timed out' },
    );
    expect(await stateOf('a2')).toBe('reopened');
  });
});

describe('false positives leave the score and counts', () => {
  const other = 'standing.triage.test';
  it('recomputes the standing without them; accepted issues still count', async () => {
    await seedDomain(database.db, organisationId, { domain: other, index: 2 });
    const where = { domain: other, url: `https://${other}/` };
    // Three serious violations of three rules: 100 - 3 x 7 = 79 (stored as the scan's 80 here).
    await scanFinding(
      ['s1', 's2', 's3'].map((id) => issue(id)),
      {},
      where,
    );
    const before = await readSiteStanding(database.db, organisationId, other);
    expect(before).toMatchObject({ score: 80, issues: { total: 3, serious: 3 } });

    await changeTriage(deps, owner, other, {
      action: 'false_positive',
      issueKeys: ['s1'],
      note: 'Not an image: a CSS sprite with a text alternative',
    });
    await changeTriage(deps, owner, other, {
      action: 'accept',
      issueKeys: ['s2'],
      reason: 'Vendor',
    });
    // Two serious violations left: 100 - 2 x 7 = 86.
    const after = await readSiteStanding(database.db, organisationId, other);
    expect(after).toMatchObject({ score: 86, issues: { total: 2, serious: 2 } });

    // Marked open again, it counts again (the stored figures are used as they are).
    await changeTriage(deps, owner, other, { action: 'open', issueKeys: ['s1'] });
    expect(await readSiteStanding(database.db, organisationId, other)).toMatchObject({
      score: 80,
      issues: { total: 3 },
    });
  });
});
