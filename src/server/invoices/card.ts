import type {
  CardResponse,
  ConfirmCardInput,
  ReplaceCardInput,
  ReplaceCardResponse,
} from '#contract/index.js';
import { ReplaceCardInput as ReplaceCardSchema } from '#contract/index.js';
import type { AppDb } from '#db/client.js';
import * as paymentStore from '#db/stores/payments.js';
import { recordAudit, type AuditActor } from '../audit-log/service.js';
import { ConflictError, HttpError, InvalidError, NotFoundError } from '../http-errors.js';
import * as invoiceRepo from './repo.js';
import type { PaymentProvider } from '../billing/payments.js';

/**
 * The card on file (issue 26 item 4): what identifies it to its holder (brand, last four digits,
 * expiry; never the number), and replacing it. With the demo provider the labelled demo form
 * sends a test number and expiry: nothing is charged or stored but those four facts. With Stripe
 * the replacement is a SetupIntent of the account's customer, confirmed in the browser with
 * Stripe.js (the number never reaches this server), then read back from Stripe by
 * `POST /api/billing/card/confirm`, which makes it the card the subscription charges.
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
  if (!deps.payments.demo) return startProviderReplacement(deps, organisationId, input, now);
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

/** Stripe mode: a SetupIntent for the browser to confirm; nothing about the card changes yet. */
async function startProviderReplacement(
  deps: CardDeps,
  organisationId: string,
  input: ReplaceCardInput,
  now: Date,
): Promise<ReplaceCardResponse> {
  const start = deps.payments.startCardReplacement;
  if (!start) throw new ConflictError('This payment provider cannot replace the card here.');
  if (input.cardNumber !== undefined || input.expiry !== undefined) {
    throw new InvalidError(
      'The card is entered in the payment provider’s form; this service never receives its number.',
    );
  }
  const ids = await invoiceRepo.findProviderIds(deps.db, organisationId);
  if (!ids) throw new NotFoundError('Billing account not found');
  if (!ids.customerId) {
    throw new ConflictError('There is no card on file to replace yet: add one at checkout.');
  }
  const setup = await start.call(deps.payments, {
    userId: organisationId,
    customerId: ids.customerId,
    subscriptionId: ids.subscriptionId,
    idempotencyKey: `card-replace:${organisationId}:${now.toISOString()}`,
  });
  await paymentStore.insertPayment(deps.db, {
    id: setup.id,
    provider: deps.payments.kind,
    userId: organisationId,
    purpose: 'card_setup',
    domain: null,
    amountCents: 0,
    status: setup.status,
    details: { replacement: true, customerId: ids.customerId, demo: false },
  });
  const current = await cardOnFile(deps, organisationId);
  return { card: current.card, clientSecret: setup.clientSecret, setupId: setup.id, demo: false };
}

/**
 * `POST /api/billing/card/confirm`: after Stripe.js confirmed the replacement, the server reads it
 * back from Stripe and keeps what identifies the new card. A setup of another account, or one not
 * started here, is 404; one Stripe has not confirmed is 402 and changes nothing.
 */
export async function confirmCard(
  deps: CardDeps,
  organisationId: string,
  actor: AuditActor,
  input: ConfirmCardInput,
  now = new Date(),
): Promise<ReplaceCardResponse> {
  const notFound = () => new NotFoundError('Card replacement not found');
  const finish = deps.payments.finishCardReplacement;
  if (!finish) throw notFound();
  const row = await paymentStore.findPayment(deps.db, input.setupId);
  if (!row || row.userId !== organisationId || row.purpose !== 'card_setup') throw notFound();
  const replacement = await finish.call(deps.payments, input.setupId, organisationId);
  if (!replacement) throw notFound();
  if (replacement.status !== 'succeeded' || !replacement.card) {
    throw new HttpError(
      402,
      `Card not saved: ${replacement.failureMessage ?? 'the card was not confirmed'}`,
    );
  }
  const { brand, last4, expMonth, expYear, providerId } = replacement.card;
  await deps.db.transaction(async (tx) => {
    await paymentStore.updatePaymentStatus(tx, input.setupId, 'succeeded');
    await invoiceRepo.updateCard(tx, organisationId, {
      cardBrand: brand,
      cardLast4: last4,
      cardExpMonth: expMonth,
      cardExpYear: expYear,
      cardProviderId: providerId,
      cardUpdatedAt: now,
    });
    await recordAudit(
      tx,
      actor,
      'billing.card_replaced',
      { type: 'card', id: input.setupId },
      { brand, last4, expMonth, expYear },
    );
  });
  return {
    card: { brand, last4, expMonth, expYear, updatedAt: now.toISOString() },
    clientSecret: null,
    setupId: input.setupId,
    demo: false,
  };
}
