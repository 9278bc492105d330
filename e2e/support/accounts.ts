import { and, desc, eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { outboxEmails } from '#db/schema/index.js';
import type { Database } from '#db/client.js';

export const strongPassword = 'Correct-Horse1!';

let counter = 0;
/** A new address per test, so tests do not share accounts. */
export function uniqueEmail(prefix = 'person'): string {
  counter += 1;
  return `${prefix}-${Date.now().toString(36)}-${counter}@example.com`;
}

/** The newest e-mail to `to` with `subject`, as the outbox (no SMTP in tests) holds it. */
export async function latestEmail(database: Database, to: string, subject: string) {
  const [row] = await database.db
    .select()
    .from(outboxEmails)
    .where(and(eq(outboxEmails.to, to), eq(outboxEmails.subject, subject)))
    .orderBy(desc(outboxEmails.createdAt))
    .limit(1);
  return row;
}

/** Signs up through the sign-up page and waits for the dashboard. */
export async function signUp(page: Page, email: string, password = strongPassword): Promise<void> {
  await page.goto('/app/signup');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.waitForURL('**/app/dashboard');
}

export async function logIn(page: Page, email: string, password = strongPassword): Promise<void> {
  await page.goto('/app/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.waitForURL('**/app/dashboard');
}
