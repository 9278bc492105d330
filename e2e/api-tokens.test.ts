import { describe, expect, it } from 'vitest';
import { signUp, uniqueEmail } from './support/accounts.js';
import { blockingAxeViolations } from './support/axe.js';
import { screenshot, takePageErrors, useWebApp } from './support/web-app.js';

/**
 * Settings → API tokens: an owner creates a token for a CI job, copies its secret from the one
 * screen that shows it, sees when it was last used, and revokes it; the API answers the token
 * until then and refuses it after.
 */

const app = useWebApp('fresh');

describe('API tokens', () => {
  it('are created with scopes, shown once, used by a script, and revoked', async () => {
    const page = await app.freshPage();
    await signUp(page, uniqueEmail('tokens-owner'));

    await page.goto('/app/dashboard/settings');
    await page.getByRole('link', { name: 'API tokens' }).click();
    await page.getByRole('heading', { level: 1, name: 'API tokens' }).waitFor();
    await page.getByText('This organisation has no API token yet.').waitFor();

    const form = page.getByRole('form', { name: 'Create an API token' });
    // No scope chosen: the form says so instead of sending.
    await form.getByLabel('Name').fill('Nightly CI');
    await form.getByRole('button', { name: 'Create token' }).click();
    await form.getByText('Choose at least one scope.').waitFor();
    await form.getByRole('checkbox', { name: /scans:read/ }).click();
    await form.getByLabel('Expires after').selectOption('30');
    await form.getByRole('button', { name: 'Create token' }).click();

    const shown = page.getByRole('region', { name: /Your new token “Nightly CI”/ });
    await shown
      .getByText('Copy this token now: it is shown only once.', { exact: false })
      .waitFor();
    await shown.getByRole('button', { name: 'Copy token' }).waitFor();
    const secret = await shown.getByLabel('Token').inputValue();
    expect(secret).toMatch(/^cfy_[A-Za-z0-9_-]{43}$/);
    expect(await blockingAxeViolations(page)).toEqual([]);
    await screenshot(page, 'api-tokens-created');

    // A script calls the API with it: no cookies, no CSRF token.
    const call = () =>
      fetch(`${app.web.baseUrl}/api/scans`, { headers: { authorization: `Bearer ${secret}` } });
    expect((await call()).status).toBe(200);

    // Once stored, the secret is gone from the screen; the list shows the token, used just now.
    await shown.getByRole('button', { name: 'I have stored it' }).click();
    await shown.waitFor({ state: 'detached' });
    await page.reload();
    const row = page.getByRole('row', { name: /Nightly CI/ });
    await row.waitFor();
    const cells = (await row.getByRole('cell').allTextContents()).map((text) => text.trim());
    expect(cells[0]).toBe('scans:read');
    expect(cells[3]).not.toBe('Never used');
    expect(cells[4]).toBe('Active');
    expect(await page.content()).not.toContain(secret);

    // Revoking asks first; the script is refused from its next request.
    page.once('dialog', (dialog) => void dialog.accept());
    await row.getByRole('button', { name: 'Revoke Nightly CI' }).click();
    await page
      .getByText(/API token "Nightly CI" revoked/)
      .first()
      .waitFor();
    await row.getByText(/^Revoked /).waitFor();
    const refused = await call();
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as { message: string }).message).toMatch(/^API token revoked/);
    expect(takePageErrors()).toEqual([]);
  });
});
