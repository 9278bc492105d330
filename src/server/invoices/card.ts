import type { CardResponse, ReplaceCardInput, ReplaceCardResponse } from '#contract/index.js';
import { ReplaceCardInput as ReplaceCardSchema } from '#contract/index.js';
import type { AppDb } from '#db/client.js';
import * as paymentStore from '#db/stores/payments.js';
import { recordAudit, type AuditActor } from '../audit-log/service.js';
import { ConflictError, InvalidError, NotFoundError } from '../http-errors.js';
import * as invoiceRepo from './repo.js';
import type { PaymentProvider } from '../billing/payments.js';

/**
 * The card on file (issue 26 item 4): what identifies it to its holder (brand, last four digits,
 * expiry; never the number), and replacing it. With the demo provider the labelled demo form
 * sends a test number and expiry: nothing is charged or stored but those four facts. Stripe's
 * replacement runs through a SetupIntent confirmed in the browser (not built yet: answered 409).
 */

export interface CardDeps {
  db: AppDb;
  payments: PaymentProvider;
}

/** The card network a number belongs to, by its leading digits (IIN ranges). */
export function cardBrand(number: string): string {
  if (/^4/.test(number)) return 'visa';
  if (/^(5[1-5]|2(2[2-9][1-9]|2[3-9]\d|[3-6]\d\d|7[01]\d|720))/.test(number)) return 'mastercard';
  if (/^3[47]/.test(number)) return 'amex';
  if (/^(6011|65|64[4-9])/.test(number)) return 'discover';
  return 'card';
}

/** The Luhn check every card number passes: a mistyped digit is caught before it is kept. */
export function passesLuhn(number: string): boolean {
  let sum = 0;
  for (let i = 0; i < number.length; i += 1) {
    let digit = Number(number[number.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

export async function cardOnFile(deps: CardDeps, organisationId: string): Promise<CardResponse> {
  const row = await invoiceRepo.findCard(deps.db, organisationId);
  if (!row) throw new NotFoundError('Billing account not found');
  return {
    provider: deps.payments.kind,
    card:
      row.cardBrand && row.cardLast4
        ? {
            brand: row.cardBrand,
            last4: row.cardLast4,
            expMonth: row.cardExpMonth,
            expYear: row.cardExpYear,
            updatedAt: row.cardUpdatedAt?.toISOString() ?? null,
          }
        : null,
  };
}

/** `POST /api/billing/card`: replaces the card on file. */
export async function replaceCard(
  deps: CardDeps,
  organisationId: string,
  actor: AuditActor,
  input: ReplaceCardInput,
  now = new Date(),
): Promise<ReplaceCardResponse> {
  if (!deps.payments.demo) {
    throw new ConflictError(
      'Replacing the card through Stripe is not available here yet; contact support to change it.',
    );
  }
  const parsed = ReplaceCardSchema.safeParse(input);
  if (!parsed.success) throw new InvalidError(parsed.error.issues[0]?.message ?? 'Invalid card');
  const { cardNumber, expiry } = parsed.data;
  if (!cardNumber) throw new InvalidError('Enter the card number');
  if (!expiry) throw new InvalidError('Enter the expiry date as MM/YY');
  if (!passesLuhn(cardNumber)) {
    throw new InvalidError('This card number is not valid: check the digits');
  }
  const [month, year] = expiry.split('/').map((part) => Number(part.trim()));
  const expYear = year! < 100 ? 2000 + year! : year!;
  const expMonth = month!;
  // A card is good to the end of its expiry month.
  if (new Date(Date.UTC(expYear, expMonth, 1)) <= now) {
    throw new InvalidError('This card has expired: enter a card with a later expiry date');
  }
  const brand = cardBrand(cardNumber);
  const last4 = cardNumber.slice(-4);
  const setupId = `demo_pm_${now.getTime().toString(36)}${last4}`;
  await deps.db.transaction(async (tx) => {
    // Kept as a card setup of nothing, like the first card: the payments record shows it.
    await paymentStore.insertPayment(tx, {
      id: setupId,
      provider: deps.payments.kind,
      userId: organisationId,
      purpose: 'card_setup',
      domain: null,
      amountCents: 0,
      status: 'succeeded',
      details: { replacement: true, brand, last4, demo: true },
    });
    await invoiceRepo.updateCard(tx, organisationId, {
      cardBrand: brand,
      cardLast4: last4,
      cardExpMonth: expMonth,
      cardExpYear: expYear,
      cardProviderId: setupId,
      cardUpdatedAt: now,
    });
    await recordAudit(
      tx,
      actor,
      'billing.card_replaced',
      { type: 'card', id: setupId },
      { brand, last4, expMonth, expYear },
    );
  });
  return {
    card: {
      brand,
      last4,
      expMonth,
      expYear,
      updatedAt: now.toISOString(),
    },
    clientSecret: null,
    setupId: null,
    demo: true,
  };
}
