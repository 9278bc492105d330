import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A small Stripe-compatible HTTP server on 127.0.0.1 for tests: the official SDK is pointed at it
 * (`new Stripe(key, { host, port, protocol: 'http' })`) and talks to it as to api.stripe.com. It
 * implements only the calls our provider makes (payment intents, setup intents, customers,
 * products, subscriptions, refunds), reads Stripe's form-encoded bodies, honours Idempotency-Key like Stripe
 * (the same key answers the first answer again) and records every request, so a test can assert
 * what the SDK sent, such as the amount.
 *
 * Payments stay where Stripe leaves them before the browser confirms; `confirm` and `fail` play
 * the part of Stripe.js and the card network.
 */

export type Params = { [key: string]: Param };
export type Param = string | Params | Param[];

export interface RecordedRequest {
  method: string;
  path: string;
  /** The form body decoded into nested objects and arrays, as Stripe reads it. */
  body: Params;
  idempotencyKey: string | undefined;
  authorization: string | undefined;
}

type StripeObject = Record<string, unknown> & { id: string; object: string };

/** The card Stripe.js collected, as its PaymentMethod describes it. */
export interface TestCard {
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
}

interface SubscriptionItem {
  id: string;
  price: Record<string, unknown>;
  current_period_start: number;
  current_period_end: number;
}

export interface FakeStripe {
  host: string;
  port: number;
  protocol: 'http';
  secretKey: string;
  requests: RecordedRequest[];
  /** What the server holds now, by id. */
  objects: Map<string, StripeObject>;
  /** The card was accepted: the payment or setup intent succeeds (a Visa 4242 unless named). */
  confirm(id: string, card?: TestCard): void;
  /** The card was declined, with Stripe's words for it. */
  fail(id: string, message: string): void;
  /** The card on file of this subscription is declined from now on (off-session charges). */
  declineCard(subscriptionId: string): void;
  close(): Promise<void>;
}

/** `a[b][0][c]=1` into `{ a: { b: [ { c: '1' } ] } }`, Stripe's (and qs's) bracket notation. */
export function decodeForm(text: string): Params {
  const root: Params = {};
  for (const [key, value] of new URLSearchParams(text)) {
    const path = key.replace(/\]/g, '').split('[');
    let node: Params = root;
    path.forEach((part, index) => {
      if (index === path.length - 1) {
        node[part] = value;
      } else {
        node[part] ??= {};
        node = node[part] as Params;
      }
    });
  }
  return arraysOf(root) as Params;
}

/** Objects keyed 0, 1, 2... are the arrays the SDK encoded with indices. */
function arraysOf(value: Param): Param {
  if (typeof value === 'string' || Array.isArray(value)) return value;
  const keys = Object.keys(value);
  const entries = keys.map((key) => [key, arraysOf(value[key]!)] as const);
  if (keys.length > 0 && keys.every((key, index) => key === String(index))) {
    return entries.map(([, child]) => child);
  }
  return Object.fromEntries(entries);
}

const newId = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;
const nowSeconds = () => Math.floor(Date.now() / 1000);

function text(value: Param | undefined): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function stringMap(value: Param | undefined): Record<string, string> {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return {};
  return Object.fromEntries(
    Object.entries(value).filter(
      (entry): entry is [string, string] => typeof entry[1] === 'string',
    ),
  );
}

class StripeError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    message: string,
    readonly code?: string,
  ) {
    super(message);
  }
}

const missing = (kind: string, id: string) =>
  new StripeError(404, 'invalid_request_error', `No such ${kind}: '${id}'`, 'resource_missing');

export async function startFakeStripe(secretKey = 'sk_test_fake'): Promise<FakeStripe> {
  const requests: RecordedRequest[] = [];
  const objects = new Map<string, StripeObject>();
  /** Idempotency-Key to the first answer given for it. */
  const answered = new Map<string, { request: string; status: number; body: string }>();
  /** Subscriptions whose card on file is declined. */
  const declining = new Set<string>();

  function get(kind: string, prefix: string, id: string): StripeObject {
    const found = objects.get(id);
    if (!found || !id.startsWith(`${prefix}_`)) throw missing(kind, id);
    return found;
  }

  function store<T extends StripeObject>(object: T): T {
    objects.set(object.id, object);
    return object;
  }

  /** Replaces the ids named in `expand[]` by the objects (one level, or `a.b` for two). */
  function expanded(object: StripeObject, expand: Param | undefined): StripeObject {
    const paths = Array.isArray(expand) ? expand.filter((p) => typeof p === 'string') : [];
    const copy: StripeObject = { ...object };
    for (const path of paths) {
      const [first, second] = path.split('.');
      const id = copy[first!];
      if (typeof id !== 'string' || !objects.has(id)) continue;
      let child: StripeObject = { ...objects.get(id)! };
      if (second && typeof child[second] === 'string' && objects.has(child[second] as string)) {
        child = { ...child, [second]: objects.get(child[second] as string)! };
      }
      copy[first!] = child;
    }
    return copy;
  }

  function paymentIntent(body: Params): StripeObject {
    const amount = Number(text(body.amount));
    if (!Number.isInteger(amount) || amount < 50) {
      throw new StripeError(
        400,
        'invalid_request_error',
        'Amount must be at least $0.50 usd',
        'amount_too_small',
      );
    }
    if (text(body.currency) === undefined) {
      throw new StripeError(400, 'invalid_request_error', 'Missing required param: currency.');
    }
    const id = newId('pi');
    return store({
      id,
      object: 'payment_intent',
      amount,
      currency: text(body.currency),
      status: 'requires_payment_method',
      client_secret: `${id}_secret_${randomBytes(8).toString('hex')}`,
      customer: text(body.customer) ?? null,
      receipt_email: text(body.receipt_email) ?? null,
      description: text(body.description) ?? null,
      metadata: stringMap(body.metadata),
      automatic_payment_methods:
        text((body.automatic_payment_methods as Params | undefined)?.enabled) === 'true'
          ? { enabled: true }
          : null,
      last_payment_error: null,
      created: nowSeconds(),
      livemode: false,
    });
  }

  function setupIntent(body: Params): StripeObject {
    const id = newId('seti');
    return store({
      id,
      object: 'setup_intent',
      status: 'requires_payment_method',
      client_secret: `${id}_secret_${randomBytes(8).toString('hex')}`,
      customer: text(body.customer) ?? null,
      usage: text(body.usage) ?? 'off_session',
      metadata: stringMap(body.metadata),
      last_setup_error: null,
      created: nowSeconds(),
      livemode: false,
    });
  }

  function subscription(body: Params): StripeObject {
    const customer = text(body.customer);
    if (!customer || !objects.has(customer)) throw missing('customer', String(customer));
    const items = Array.isArray(body.items) ? (body.items as Params[]) : [];
    const priceData = items[0]?.price_data as Params | undefined;
    const product = text(priceData?.product);
    if (!priceData || !product) {
      throw new StripeError(400, 'invalid_request_error', 'Missing required param: items.');
    }
    if (!objects.has(product)) throw missing('product', product);
    const trialEnd = Number(text(body.trial_end));
    const trialing = Number.isInteger(trialEnd) && trialEnd > nowSeconds();
    const id = newId('sub');
    const start = nowSeconds();
    const periodEnd = trialing ? trialEnd : start + 30 * 24 * 3600;
    const price = {
      id: newId('price'),
      object: 'price',
      currency: text(priceData.currency),
      product,
      unit_amount: Number(text(priceData.unit_amount)),
      recurring: { interval: text((priceData.recurring as Params | undefined)?.interval) },
    };
    const invoiceId = newId('in');
    const amountDue = trialing ? 0 : price.unit_amount;
    const confirmationSecret = `${invoiceId}_secret_${randomBytes(8).toString('hex')}`;
    store({
      id: invoiceId,
      object: 'invoice',
      customer,
      amount_due: amountDue,
      amount_paid: 0,
      status: amountDue === 0 ? 'paid' : 'open',
      billing_reason: 'subscription_create',
      confirmation_secret:
        amountDue === 0 ? null : { client_secret: confirmationSecret, type: 'payment_intent' },
      parent: {
        type: 'subscription_details',
        subscription_details: { subscription: id, metadata: stringMap(body.metadata) },
      },
      lines: { object: 'list', data: [{ period: { start, end: periodEnd } }], has_more: false },
    });
    const pending = trialing ? setupIntent({ customer, usage: 'off_session' }) : undefined;
    return store({
      id,
      object: 'subscription',
      customer,
      status: trialing ? 'trialing' : 'incomplete',
      trial_end: trialing ? trialEnd : null,
      payment_behavior: text(body.payment_behavior),
      payment_settings: body.payment_settings ?? null,
      pending_setup_intent: pending?.id ?? null,
      latest_invoice: invoiceId,
      metadata: stringMap(body.metadata),
      items: {
        object: 'list',
        data: [
          {
            id: newId('si'),
            object: 'subscription_item',
            price,
            quantity: 1,
            current_period_start: start,
            current_period_end: periodEnd,
          },
        ],
        has_more: false,
      },
      created: start,
      livemode: false,
    });
  }

  /**
   * A price change that restarts the billing period today (`billing_cycle_anchor[type]=now`), as
   * Stripe bills it with `proration_behavior=always_invoice`: the unused part of the period in
   * force is credited, the new price's period charged, and the difference invoiced and charged to
   * the card on file at once. Without a card (or with `declineCard`) the payment fails, and with
   * `payment_behavior=error_if_incomplete` Stripe answers 402 and changes nothing.
   */
  function prorate(
    subscription: StripeObject,
    item: SubscriptionItem,
    priceData: Params,
    body: Params,
  ) {
    const now = nowSeconds();
    const oldAmount = Number(item.price.unit_amount);
    const length = Math.max(1, item.current_period_end - item.current_period_start);
    const unused = Math.max(0, item.current_period_end - now);
    const credit = Math.round((oldAmount * unused) / length);
    const charge = Number(text(priceData.unit_amount));
    const due = Math.max(0, charge - credit);
    const card = subscription.default_payment_method && !declining.has(subscription.id);
    if (!card && text(body.payment_behavior) === 'error_if_incomplete') {
      throw new StripeError(402, 'card_error', 'Your card was declined.', 'card_declined');
    }
    const interval = text((priceData.recurring as Params | undefined)?.interval) ?? 'month';
    const end = now + (interval === 'year' ? 365 : 30) * 24 * 3600;
    const invoiceId = newId('in');
    store({
      id: invoiceId,
      object: 'invoice',
      customer: subscription.customer,
      currency: text(priceData.currency) ?? 'usd',
      amount_due: due,
      amount_paid: card ? due : 0,
      status: card || due === 0 ? 'paid' : 'open',
      billing_reason: 'subscription_update',
      hosted_invoice_url: `https://invoice.stripe.com/i/acct_fake/${invoiceId}`,
      confirmation_secret: null,
      parent: {
        type: 'subscription_details',
        subscription_details: {
          subscription: subscription.id,
          metadata: subscription.metadata,
        },
      },
      lines: {
        object: 'list',
        data: [
          {
            amount: -credit,
            proration: true,
            period: { start: now, end: item.current_period_end },
          },
          { amount: charge, proration: false, period: { start: now, end } },
        ],
        has_more: false,
      },
    });
    item.current_period_start = now;
    item.current_period_end = end;
    subscription.latest_invoice = invoiceId;
  }

  /** `POST /v1/subscription_schedules` from a running subscription: its current phase only. */
  function scheduleFrom(body: Params): StripeObject {
    const subscriptionId = text(body.from_subscription);
    const subscription = get('subscription', 'sub', String(subscriptionId));
    if (subscription.schedule) {
      throw new StripeError(
        400,
        'invalid_request_error',
        'You cannot migrate a subscription that is already attached to a schedule.',
      );
    }
    const item = (subscription.items as { data: SubscriptionItem[] }).data[0]!;
    const schedule = store({
      id: newId('sub_sched'),
      object: 'subscription_schedule',
      subscription: subscription.id,
      customer: subscription.customer,
      end_behavior: 'release',
      status: 'active',
      phases: [
        {
          start_date: item.current_period_start,
          end_date: item.current_period_end,
          items: [{ price: item.price.id, quantity: 1 }],
        },
      ],
    });
    subscription.schedule = schedule.id;
    return schedule;
  }

  /**
   * `POST /v1/refunds` of a PaymentIntent, as Stripe answers it: only a succeeded payment has a
   * charge to refund, never more than is left of it; a refund succeeds at once (test cards do).
   */
  function refund(body: Params): StripeObject {
    const intent = get('payment_intent', 'pi', String(text(body.payment_intent)));
    if (intent.status !== 'succeeded') {
      throw new StripeError(
        400,
        'invalid_request_error',
        `This PaymentIntent (${intent.id}) does not have a successful charge to refund.`,
      );
    }
    const left = Number(intent.amount) - Number(intent.amount_refunded ?? 0);
    const amount = body.amount === undefined ? left : Number(text(body.amount));
    if (left <= 0) {
      throw new StripeError(
        400,
        'invalid_request_error',
        `Charge for ${intent.id} has already been refunded.`,
        'charge_already_refunded',
      );
    }
    if (!Number.isInteger(amount) || amount <= 0 || amount > left) {
      throw new StripeError(
        400,
        'invalid_request_error',
        `Refund amount (${amount}) is greater than unrefunded amount on charge (${left})`,
      );
    }
    intent.amount_refunded = Number(intent.amount_refunded ?? 0) + amount;
    return store({
      id: newId('re'),
      object: 'refund',
      amount,
      currency: intent.currency,
      payment_intent: intent.id,
      reason: text(body.reason) ?? null,
      status: 'succeeded',
      failure_reason: null,
      metadata: stringMap(body.metadata),
      created: nowSeconds(),
    });
  }

  function route(method: string, path: string, body: Params): Record<string, unknown> {
    const parts = path.split('/').filter(Boolean);
    if (parts[0] !== 'v1')
      throw new StripeError(
        404,
        'invalid_request_error',
        `Unrecognized request URL (${method}: ${path})`,
      );
    const [, resource, id] = parts;
    const expand = body.expand;
    switch (`${method} ${resource}${id ? '/:id' : ''}`) {
      case 'POST payment_intents':
        return paymentIntent(body);
      case 'GET payment_intents/:id':
        return get('payment_intent', 'pi', id!);
      case 'POST setup_intents':
        return setupIntent(body);
      case 'GET setup_intents/:id':
        return expanded(get('setup_intent', 'seti', id!), expand);
      case 'POST setup_intents/:id': {
        const found = get('setup_intent', 'seti', id!);
        found.metadata = { ...(found.metadata as object), ...stringMap(body.metadata) };
        return found;
      }
      case 'POST customers':
        return store({
          id: newId('cus'),
          object: 'customer',
          email: text(body.email) ?? null,
          metadata: stringMap(body.metadata),
          created: nowSeconds(),
          livemode: false,
        });
      case 'GET customers/:id':
        return get('customer', 'cus', id!);
      case 'POST customers/:id': {
        const found = get('customer', 'cus', id!);
        const settings = body.invoice_settings as Params | undefined;
        const method = text(settings?.default_payment_method);
        if (method !== undefined) {
          if (!objects.has(method)) throw missing('payment_method', method);
          found.invoice_settings = { default_payment_method: method };
        }
        return found;
      }
      case 'POST products': {
        const productId = text(body.id) ?? newId('prod');
        if (objects.has(productId)) {
          throw new StripeError(
            400,
            'invalid_request_error',
            `Product already exists.`,
            'resource_already_exists',
          );
        }
        return store({
          id: productId,
          object: 'product',
          name: text(body.name),
          active: true,
          livemode: false,
        });
      }
      case 'GET products/:id': {
        const found = objects.get(id!);
        if (!found || found.object !== 'product') throw missing('product', id!);
        return found;
      }
      case 'POST subscriptions':
        return expanded(subscription(body), expand);
      case 'GET subscriptions': {
        // Like Stripe without a status filter: every subscription not cancelled.
        const data = [...objects.values()]
          .filter(
            (object) =>
              object.object === 'subscription' &&
              object.status !== 'canceled' &&
              (body.customer === undefined || object.customer === text(body.customer)),
          )
          .map((object) => expanded(object, expand));
        return { object: 'list', data, has_more: false, url: '/v1/subscriptions' };
      }
      case 'POST subscriptions/:id': {
        const found = get('subscription', 'sub', id!);
        const item = (Array.isArray(body.items) ? (body.items as Params[]) : [])[0];
        const priceData = item?.price_data as Params | undefined;
        if (priceData) {
          const items = found.items as { data: SubscriptionItem[] };
          const current = items.data.find((entry) => entry.id === text(item!.id));
          if (!current) throw missing('subscription item', String(text(item!.id)));
          const anchorNow = text((body.billing_cycle_anchor as Params | undefined)?.type) === 'now';
          if (anchorNow) prorate(found, current, priceData, body);
          current.price = {
            ...current.price,
            id: newId('price'),
            unit_amount: Number(text(priceData.unit_amount)),
            recurring: {
              interval:
                text((priceData.recurring as Params | undefined)?.interval) ??
                (current.price.recurring as { interval?: string } | undefined)?.interval,
            },
          };
        }
        if (body.metadata)
          found.metadata = { ...(found.metadata as object), ...stringMap(body.metadata) };
        const method = text(body.default_payment_method);
        if (method !== undefined) {
          if (!objects.has(method)) throw missing('payment_method', method);
          found.default_payment_method = method;
          declining.delete(found.id);
        }
        return expanded(found, expand);
      }
      case 'POST refunds':
        return refund(body);
      case 'POST subscription_schedules':
        return scheduleFrom(body);
      case 'POST subscription_schedules/:id': {
        const found = get('subscription_schedule', 'sub_sched', id!);
        if (Array.isArray(body.phases)) found.phases = body.phases;
        if (text(body.end_behavior)) found.end_behavior = text(body.end_behavior);
        return found;
      }
      case 'GET subscriptions/:id':
        return expanded(get('subscription', 'sub', id!), expand);
      case 'DELETE subscriptions/:id': {
        const found = get('subscription', 'sub', id!);
        found.status = 'canceled';
        found.canceled_at = nowSeconds();
        return found;
      }
      default:
        throw new StripeError(
          404,
          'invalid_request_error',
          `Unrecognized request URL (${method}: ${path})`,
        );
    }
  }

  async function readBody(request: IncomingMessage): Promise<string> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  }

  function send(response: ServerResponse, status: number, body: string) {
    response.writeHead(status, { 'content-type': 'application/json', 'request-id': newId('req') });
    response.end(body);
  }

  const server = createServer((request, response) => {
    void (async () => {
      const url = new URL(request.url ?? '/', 'http://127.0.0.1');
      const raw = await readBody(request);
      // GET parameters (expand[]) come in the query string, others in the form body.
      const body = decodeForm(request.method === 'GET' ? url.searchParams.toString() : raw);
      const idempotencyKey = request.headers['idempotency-key'] as string | undefined;
      const authorization = request.headers.authorization;
      requests.push({
        method: request.method ?? 'GET',
        path: url.pathname,
        body,
        idempotencyKey,
        authorization,
      });

      if (authorization !== `Bearer ${secretKey}`) {
        send(
          response,
          401,
          JSON.stringify({
            error: { type: 'invalid_request_error', message: 'Invalid API Key provided' },
          }),
        );
        return;
      }
      // As at Stripe, a key belongs to the account, not to a path: the same key again answers the
      // first answer, and with another request it is an error.
      const request_ = `${request.method} ${url.pathname} ${raw}`;
      const earlier = idempotencyKey ? answered.get(idempotencyKey) : undefined;
      if (earlier && earlier.request !== request_) {
        send(
          response,
          400,
          JSON.stringify({
            error: {
              type: 'idempotency_error',
              message:
                'Keys for idempotent requests can only be used with the same parameters they ' +
                'were first used with.',
            },
          }),
        );
        return;
      }
      if (earlier) {
        send(response, earlier.status, earlier.body);
        return;
      }
      let status = 200;
      let answer: string;
      try {
        answer = JSON.stringify(route(request.method ?? 'GET', url.pathname, body));
      } catch (error) {
        if (!(error instanceof StripeError)) throw error;
        status = error.status;
        answer = JSON.stringify({
          error: { type: error.type, message: error.message, code: error.code },
        });
      }
      if (idempotencyKey && request.method === 'POST') {
        answered.set(idempotencyKey, { request: request_, status, body: answer });
      }
      send(response, status, answer);
    })().catch((error: unknown) => {
      send(response, 500, JSON.stringify({ error: { type: 'api_error', message: String(error) } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  function settle(id: string, status: 'succeeded' | 'failed', message?: string, card?: TestCard) {
    const intent = objects.get(id);
    if (!intent || (intent.object !== 'payment_intent' && intent.object !== 'setup_intent')) {
      throw new Error(`the fake Stripe has no intent ${id}`);
    }
    if (status === 'succeeded') {
      intent.status = 'succeeded';
      intent.payment_method = store({
        id: newId('pm'),
        object: 'payment_method',
        type: 'card',
        customer: intent.customer ?? null,
        card: {
          brand: card?.brand ?? 'visa',
          last4: card?.last4 ?? '4242',
          exp_month: card?.expMonth ?? 12,
          exp_year: card?.expYear ?? new Date().getUTCFullYear() + 3,
        },
      }).id;
      // As at Stripe: a subscription's setup, once done, is no longer pending and its card is
      // the subscription's default.
      for (const object of objects.values()) {
        if (object.object === 'subscription' && object.pending_setup_intent === id) {
          object.pending_setup_intent = null;
          object.default_payment_method = intent.payment_method;
        }
      }
      return;
    }
    intent.status = 'requires_payment_method';
    const errorField =
      intent.object === 'payment_intent' ? 'last_payment_error' : 'last_setup_error';
    intent[errorField] = { type: 'card_error', code: 'card_declined', message };
  }

  return {
    host: '127.0.0.1',
    port,
    protocol: 'http',
    secretKey,
    requests,
    objects,
    confirm: (id, card) => settle(id, 'succeeded', undefined, card),
    fail: (id, message) => settle(id, 'failed', message),
    declineCard: (subscriptionId) => declining.add(subscriptionId),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
