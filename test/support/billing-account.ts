import { eq } from 'drizzle-orm';
import type { AppDb } from '#db/client.js';
import { billingAccounts } from '#db/schema/index.js';

/**
 * An organisation's billing account as tests read it: its row, and whether a card is on file
 * (billing_accounts keeps the card's brand while it is).
 */
export async function billingAccountOf(db: AppDb, organisationId: string) {
  const [row] = await db
    .select()
    .from(billingAccounts)
    .where(eq(billingAccounts.organisationId, organisationId));
  if (!row) throw new Error(`No billing account for ${organisationId}`);
  return { ...row, cardAdded: row.cardBrand !== null };
}

/** Sets an organisation's billing state, as tests seed it. */
export async function setBillingAccount(
  db: AppDb,
  organisationId: string,
  values: Partial<typeof billingAccounts.$inferInsert> & { cardAdded?: boolean },
): Promise<void> {
  const { cardAdded, ...rest } = values;
  await db
    .update(billingAccounts)
    .set({ ...rest, ...(cardAdded === undefined ? {} : { cardBrand: cardAdded ? 'card' : null }) })
    .where(eq(billingAccounts.organisationId, organisationId));
}
