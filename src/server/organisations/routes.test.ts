import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startAccountService,
  TestBrowser,
  type AccountService,
} from '../../../test/support/auth.js';
import {
  AcceptInvitationResponse,
  InvitationPreview,
  InvitationResponse,
  OrganisationsResponse,
  TeamResponse,
} from '#contract/index.js';
import { domains, outboxEmails, users } from '#db/schema/index.js';

/** Organisations, members and invitations over HTTP: who may call what, and what it changes. */

let service: AccountService;
const password = 'Correct-Horse1!';

async function registered(email: string) {
  const browser = new TestBrowser(service.app);
  const response = await browser.post('/api/auth/register', { email, password });
  expect(response.statusCode, response.body).toBe(201);
  return browser;
}

async function idOf(email: string) {
  const [row] = await service.database.db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.email, email));
  return row!.id;
}

async function send(
  browser: TestBrowser,
  method: 'PATCH' | 'DELETE',
  url: string,
  payload?: unknown,
) {
  return service.app.inject({
    method,
    url,
    remoteAddress: '127.0.0.1',
    headers: {
      cookie: browser.cookieHeader,
      'x-csrf-token': await browser.token(),
      ...(payload !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(payload !== undefined ? { payload: JSON.stringify(payload) } : {}),
  });
}

/** The invitation link's path from the newest e-mail to `email`. */
async function invitationPathFor(email: string): Promise<string> {
  let text = '';
  for (let attempt = 0; attempt < 200 && !text; attempt += 1) {
    const rows = await service.database.db
      .select()
      .from(outboxEmails)
      .where(eq(outboxEmails.to, email));
    text = rows.at(-1)?.text ?? '';
    if (!text) await new Promise((resolve) => setImmediate(resolve));
  }
  const match = /https:\/\/conformly\.example(\/invitations\/[\w-]+)/.exec(text);
  expect(match, text).not.toBeNull();
  return match![1]!;
}

let owner: TestBrowser;
let member: TestBrowser;
let viewer: TestBrowser;
let ownerId: string;
let memberId: string;
const domain = 'team-routes.test';

beforeAll(async () => {
  service = await startAccountService({ publicUrl: 'https://conformly.example' });
  owner = await registered('owner@team-routes.test');
  member = await registered('member@team-routes.test');
  viewer = await registered('viewer@team-routes.test');
  ownerId = await idOf('owner@team-routes.test');
  memberId = await idOf('member@team-routes.test');
  await service.database.db.insert(domains).values({
    userId: ownerId,
    domain,
    status: 'active',
    domainIndex: 1,
    monthlyPrice: 4900,
    monitoringSince: new Date(),
  });
}, 180_000);
afterAll(async () => {
  await service?.close();
});

describe('the organisation API', () => {
  it('refuses anonymous callers with 401 and answers an unknown link with 404', async () => {
    const anonymous = new TestBrowser(service.app);
    expect((await anonymous.get('/api/organisations')).statusCode).toBe(401);
    expect((await anonymous.get('/api/organisation/members')).statusCode).toBe(401);
    const invite = await anonymous.post('/api/organisation/invitations', {
      email: 'x@team-routes.test',
      role: 'viewer',
    });
    expect(invite.statusCode).toBe(401);
    expect((await anonymous.get('/api/invitations/nothing-here')).statusCode).toBe(404);
    expect((await anonymous.post('/api/invitations/nothing-here/accept')).statusCode).toBe(401);
  });

  it('invites by e-mail; the invited person previews, accepts once and works there', async () => {
    const invited = await owner.post('/api/organisation/invitations', {
      email: 'Member@Team-Routes.test',
      role: 'member',
    });
    expect(invited.statusCode, invited.body).toBe(201);
    InvitationResponse.parse(invited.json());
    const path = await invitationPathFor('Member@Team-Routes.test');

    // Whoever holds the link sees what it offers.
    const preview = InvitationPreview.parse(
      (await new TestBrowser(service.app).get(`/api${path}`)).json(),
    );
    expect(preview).toMatchObject({
      role: 'member',
      state: 'pending',
      invitedBy: 'owner@team-routes.test',
    });

    // Another account cannot use it.
    const wrong = await viewer.post(`/api${path}/accept`);
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json().message).toContain('Member@Team-Routes.test');

    const accepted = await member.post(`/api${path}/accept`);
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(AcceptInvitationResponse.parse(accepted.json()).membership.organisationId).toBe(ownerId);
    expect((await member.post(`/api${path}/accept`)).statusCode).toBe(409);

    const organisations = OrganisationsResponse.parse(
      (await member.get('/api/organisations')).json(),
    );
    expect(organisations.active).toMatchObject({ organisationId: ownerId, role: 'member' });
    expect(organisations.organisations).toHaveLength(2);
    // The organisation's domains are the member's to see now.
    const list = await member.get('/api/domains');
    expect(list.statusCode).toBe(200);
    expect(list.body).toContain(domain);
  });

  it('lets a viewer read the team but not manage it', async () => {
    await owner.post('/api/organisation/invitations', {
      email: 'viewer@team-routes.test',
      role: 'viewer',
    });
    const path = await invitationPathFor('viewer@team-routes.test');
    expect((await viewer.post(`/api${path}/accept`)).statusCode).toBe(200);

    const team = TeamResponse.parse((await viewer.get('/api/organisation/members')).json());
    expect(team.members.map((m) => m.role)).toEqual(['owner', 'member', 'viewer']);
    const refused = [
      await viewer.post('/api/organisation/invitations', {
        email: 'x@team-routes.test',
        role: 'viewer',
      }),
      await send(viewer, 'PATCH', `/api/organisation/members/${memberId}`, { role: 'viewer' }),
      await send(viewer, 'DELETE', `/api/organisation/members/${memberId}`),
    ];
    expect(refused.map((r) => r.statusCode)).toEqual([403, 403, 403]);
    // Members manage nobody either.
    const byMember = await send(member, 'PATCH', `/api/organisation/members/${memberId}`, {
      role: 'admin',
    });
    expect(byMember.statusCode).toBe(403);
  });

  it('changes roles and withdraws invitations for owners, with clear refusals', async () => {
    const promoted = await send(owner, 'PATCH', `/api/organisation/members/${memberId}`, {
      role: 'admin',
    });
    expect(promoted.statusCode, promoted.body).toBe(200);
    expect(promoted.json().member.role).toBe('admin');
    const founder = await send(owner, 'PATCH', `/api/organisation/members/${ownerId}`, {
      role: 'viewer',
    });
    expect(founder.statusCode).toBe(403);
    const bad = await send(owner, 'PATCH', `/api/organisation/members/${memberId}`, {
      role: 'boss',
    });
    expect(bad.statusCode).toBe(400);

    const pending = await owner.post('/api/organisation/invitations', {
      email: 'later@team-routes.test',
      role: 'viewer',
    });
    const id = InvitationResponse.parse(pending.json()).invitation.id;
    expect((await send(owner, 'DELETE', `/api/organisation/invitations/${id}`)).statusCode).toBe(
      200,
    );
    expect((await send(owner, 'DELETE', `/api/organisation/invitations/${id}`)).statusCode).toBe(
      404,
    );
  });

  it('switches between organisations the person belongs to', async () => {
    const own = await member.post('/api/organisations/active', { organisationId: null });
    expect(own.statusCode, own.body).toBe(200);
    expect((await member.get('/api/domains')).body).not.toContain(domain);
    const stranger = await member.post('/api/organisations/active', {
      organisationId: await idOf('viewer@team-routes.test'),
    });
    expect(stranger.statusCode).toBe(404);
    const back = await member.post('/api/organisations/active', { organisationId: ownerId });
    expect(back.statusCode).toBe(200);
    expect((await member.get('/api/domains')).body).toContain(domain);
  });

  it("ends a removed member's access at their next request", async () => {
    expect((await member.get('/api/organisation/members')).statusCode).toBe(200);
    const removed = await send(owner, 'DELETE', `/api/organisation/members/${memberId}`);
    expect(removed.statusCode, removed.body).toBe(200);

    // The same session, next request: the member works in their own organisation again.
    const organisations = OrganisationsResponse.parse(
      (await member.get('/api/organisations')).json(),
    );
    expect(organisations.active).toMatchObject({ organisationId: memberId, personal: true });
    expect(organisations.organisations).toHaveLength(1);
    expect((await member.get('/api/domains')).body).not.toContain(domain);
    const team = TeamResponse.parse((await member.get('/api/organisation/members')).json());
    expect(team.organisationId).toBe(memberId);
    const choose = await member.post('/api/organisations/active', { organisationId: ownerId });
    expect(choose.statusCode).toBe(404);
  });

  it('lets a viewer leave, and keeps the founder in', async () => {
    const viewerId = await idOf('viewer@team-routes.test');
    const left = await send(viewer, 'DELETE', `/api/organisation/members/${viewerId}`);
    expect(left.statusCode, left.body).toBe(200);
    expect(left.json().message).toBe('You left the organisation.');
    const founder = await send(owner, 'DELETE', `/api/organisation/members/${ownerId}`);
    expect(founder.statusCode).toBe(403);
  });
});
