import { desc, eq } from 'drizzle-orm';
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { setBillingAccount } from '../test/support/billing-account.js';
import { defaultBadgeSettings } from '#contract/index.js';
import { domains, outboxEmails, users } from '#db/schema/index.js';
import { signUp, strongPassword, uniqueEmail } from './support/accounts.js';
import { blockingAxeViolations } from './support/axe.js';
import { screenshot, useWebApp } from './support/web-app.js';

/**
 * An agency works as a team: the owner invites a member and a viewer by e-mail, both accept from
 * the link; the viewer sees the domain and changes nothing (in the screens and over the API); a
 * complaint assigned to the member is in their "Assigned to me"; the audit log lists who did
 * what; removing the member ends their access at their next request.
 */

const app = useWebApp('fresh');

/** The invitation link's path from the newest e-mail to `to`. */
async function invitationPath(to: string): Promise<string> {
  const { db } = app.web.service.database;
  for (;;) {
    const [mail] = await db
      .select()
      .from(outboxEmails)
      .where(eq(outboxEmails.to, to))
      .orderBy(desc(outboxEmails.createdAt))
      .limit(1);
    const match = mail && /https?:\/\/[^/\s]+(\/invitations\/[\w-]+)/.exec(mail.text);
    if (match) return match[1]!;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A call from the page's own browser profile (its session cookie), with the CSRF header. */
async function apiCall(context: BrowserContext, method: string, url: string, data?: unknown) {
  const token = (
    (await (await context.request.get('/api/csrf-token')).json()) as {
      csrfToken: string;
    }
  ).csrfToken;
  return context.request.fetch(url, {
    method,
    headers: { 'x-csrf-token': token, 'content-type': 'application/json' },
    data: JSON.stringify(data ?? {}),
  });
}

async function invite(owner: Page, email: string, role: 'member' | 'viewer') {
  await owner.getByLabel('E-mail address').fill(email);
  await owner.getByLabel('Role', { exact: true }).selectOption(role);
  await owner.getByRole('button', { name: 'Send invitation' }).click();
  await owner.getByRole('button', { name: `Withdraw the invitation to ${email}` }).waitFor();
}

describe('a team in an organisation', () => {
  it('invites, limits a viewer, assigns to a member, logs it all and removes the member', async () => {
    const { db } = app.web.service.database;
    const ownerEmail = uniqueEmail('owner');
    const memberEmail = uniqueEmail('member');
    const viewerEmail = uniqueEmail('viewer');
    const domain = `team-${Date.now().toString(36)}.test`;

    // The owner, with the plan and a verified domain.
    const owner = await app.freshPage();
    await signUp(owner, ownerEmail);
    const [ownerRow] = await db
      .update(users)
      .set({ company: 'Agency Team' })
      .where(eq(users.email, ownerEmail))
      .returning({ id: users.id });
    await setBillingAccount(db, ownerRow!.id, { subscriptionStatus: 'active' });
    await db.insert(domains).values({
      userId: ownerRow!.id,
      domain,
      status: 'active',
      domainIndex: 1,
      monthlyPrice: 4900,
      monitoringSince: new Date(),
      verifiedAt: new Date(),
      verificationMethod: 'dns',
    });

    // A visitor reports a concern.
    const visitor = await app.web.newContext();
    const filed = await apiCall(visitor, 'POST', '/api/public/submit-complaint', {
      domain,
      email: 'vera@example.org',
      message: 'The menu button has no accessible name.',
      privacyConsent: true,
    });
    expect(filed.status()).toBe(201);

    // The owner invites a member and a viewer from Settings → Team.
    await owner.goto('/app/dashboard/settings/team');
    await owner.getByRole('heading', { level: 1, name: 'Team' }).waitFor();
    await invite(owner, memberEmail, 'member');
    await invite(owner, viewerEmail, 'viewer');
    expect(await blockingAxeViolations(owner)).toEqual([]);
    await screenshot(owner, 'team-invitations');

    // The member has no account yet: the link offers sign-up with the address filled in.
    const memberContext = await app.web.newContext();
    const member = await memberContext.newPage();
    await member.goto(await invitationPath(memberEmail));
    await member
      .getByText(/invited .* as member/)
      .first()
      .waitFor();
    expect(await blockingAxeViolations(member)).toEqual([]);
    await member.getByRole('link', { name: 'Create an account' }).click();
    expect(await member.getByLabel('Email').inputValue()).toBe(memberEmail);
    await member.getByLabel('Password', { exact: true }).fill(strongPassword);
    await member.getByRole('button', { name: 'Create account' }).click();
    await member.getByRole('button', { name: 'Accept the invitation' }).click();
    await member.waitForURL('**/app/dashboard');

    // The viewer signs up first, then opens the link.
    const viewerContext = await app.web.newContext();
    const viewer = await viewerContext.newPage();
    await signUp(viewer, viewerEmail);
    await viewer.goto(await invitationPath(viewerEmail));
    await viewer.getByRole('button', { name: 'Accept the invitation' }).click();
    await viewer.waitForURL('**/app/dashboard');

    // The viewer sees the domain, and the team without any control to change it.
    await viewer.goto('/app/dashboard/domains');
    await viewer.getByText(domain).first().waitFor();
    await viewer.goto('/app/dashboard/settings/team');
    await viewer.getByRole('cell', { name: new RegExp(memberEmail) }).waitFor();
    expect(await viewer.getByRole('button', { name: 'Send invitation' }).count()).toBe(0);
    expect(await viewer.getByRole('button', { name: /^Remove / }).count()).toBe(0);
    // No role select on the screen (the sidebar's organisation switcher is the only one).
    expect(await viewer.getByRole('main').getByRole('combobox').count()).toBe(0);
    await viewer.getByLabel('Organisation', { exact: true }).waitFor();
    // Over the API, every change answers 403.
    const complaintId = ((await filed.json()) as { id: string }).id;
    const memberId = (await db.select().from(users).where(eq(users.email, memberEmail)))[0]!.id;
    const writes: [string, string, unknown][] = [
      ['POST', '/api/domains', { domain: 'another.test' }],
      ['DELETE', `/api/domains/${domain}`, undefined],
      ['PUT', `/api/domains/${domain}/badge`, { settings: defaultBadgeSettings }],
      ['PATCH', `/api/domains/${domain}/monitoring`, {}],
      ['POST', `/api/domains/${domain}/verify`, {}],
      ['PATCH', `/api/complaints/${complaintId}/status`, { status: 'resolved' }],
      ['PATCH', `/api/complaints/${complaintId}/assignee`, { assignedTo: null }],
      ['POST', `/api/complaints/${complaintId}/reply`, { message: 'Hi', isInternal: false }],
      ['POST', '/api/organisation/invitations', { email: 'x@example.com', role: 'viewer' }],
      ['DELETE', `/api/organisation/members/${memberId}`, undefined],
      ['POST', '/api/scans', { url: 'https://example.com' }],
      ['POST', '/api/subscription/cancel', {}],
    ];
    for (const [method, url, body] of writes) {
      const answer = await apiCall(viewerContext, method, url, body);
      expect(answer.status(), `${method} ${url}`).toBe(403);
    }

    // The owner assigns the complaint to the member from the inbox.
    await owner.goto('/app/dashboard/complaints');
    await owner
      .getByRole('button', { name: /^View details/ })
      .first()
      .click();
    const details = owner.getByRole('dialog', { name: 'Complaint from the public status page' });
    await details.getByLabel('Assign to').selectOption({ label: memberEmail });
    await owner.getByText('Complaint Assigned', { exact: true }).waitFor();
    await owner.keyboard.press('Escape');

    // The member finds it under "Assigned to me".
    await member.goto('/app/dashboard/complaints');
    await member.getByLabel('Assigned', { exact: true }).selectOption('me');
    await member.getByText('The menu button has no accessible name.').waitFor();
    await screenshot(member, 'team-assigned-to-me');

    // The audit log lists each action with who did it.
    await owner.goto('/app/dashboard/settings/audit-log');
    for (const label of ['Member invited', 'Member joined', 'Complaint assigned']) {
      await owner.getByRole('rowheader', { name: label }).first().waitFor();
    }
    const rows = owner.getByRole('row');
    await rows.filter({ hasText: 'Complaint assigned' }).filter({ hasText: ownerEmail }).waitFor();
    await rows.filter({ hasText: 'Member joined' }).filter({ hasText: memberEmail }).waitFor();

    // The owner removes the member; the member's next request no longer reaches the domain.
    await owner.goto('/app/dashboard/settings/team');
    owner.once('dialog', (dialog) => void dialog.accept());
    await owner.getByRole('button', { name: `Remove ${memberEmail}` }).click();
    await owner.getByText(`${memberEmail} was removed.`, { exact: true }).waitFor();
    const after = await memberContext.request.get('/api/domains');
    expect(await after.text()).not.toContain(domain);
    const organisations = (await (
      await memberContext.request.get('/api/organisations')
    ).json()) as {
      active: { personal: boolean };
    };
    expect(organisations.active.personal).toBe(true);
    await member.goto('/app/dashboard/complaints');
    await member.getByRole('heading', { level: 1 }).first().waitFor();
    expect(await member.getByText('The menu button has no accessible name.').count()).toBe(0);
  }, 300_000);
});
