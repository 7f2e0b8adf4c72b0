import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BrowserContext } from 'playwright-core';
import { eq } from 'drizzle-orm';
import Stripe from 'stripe';
import { purchases } from '@app/shared/db';
import { createStripe } from '@app/shared/stripe';
import type { TestEnv } from './test-env.ts';

/**
 * A local stand-in for the few Stripe endpoints we call (Checkout Sessions create and retrieve,
 * PaymentIntents retrieve with the latest charge expanded, balance transactions retrieve, payouts
 * list by arrival date, page by page), reached by the real SDK through
 * STRIPE_API_URL. Tests move sessions along with pay/expire/completeUnpaid/refund and sign webhook
 * events with the real SDK. A call to any other endpoint is recorded in `unexpected` and answered 404.
 */
export interface FakeSession {
  id: string;
  object: 'checkout.session';
  url: string;
  mode: string;
  status: 'open' | 'complete' | 'expired';
  payment_status: 'unpaid' | 'paid' | 'no_payment_required';
  payment_intent: string | null;
  customer_email: string | null;
  amount_total: number;
  currency: string;
  metadata: Record<string, string>;
  success_url: string;
  cancel_url: string;
  /** What Checkout collected (name, billing address when asked for). */
  customer_details: {
    email: string | null;
    name: string | null;
    address: {
      line1: string | null;
      line2: string | null;
      city: string | null;
      state: string | null;
      postal_code: string | null;
      country: string | null;
    } | null;
  } | null;
  /** The expired session a recovery link came from. */
  recovered_from: string | null;
  after_expiration: { recovery: { enabled: boolean; url: string | null } } | null;
}

export interface FakeCharge {
  id: string;
  object: 'charge';
  amount: number;
  amount_refunded: number;
  refunded: boolean;
  payment_intent: string;
  metadata: Record<string, string>;
  balance_transaction: string | null;
  payment_method_details: { type: string };
}

export interface FakeBalanceTransaction {
  id: string;
  object: 'balance_transaction';
  amount: number;
  fee: number;
  net: number;
  currency: string;
  available_on: number;
  type: 'charge';
  source: string;
}

export interface FakePayout {
  id: string;
  object: 'payout';
  amount: number;
  currency: string;
  /** Unix seconds: the day Stripe expects it in the bank. */
  arrival_date: number;
  created: number;
  status: 'pending' | 'in_transit' | 'paid' | 'failed' | 'canceled';
  automatic: boolean;
  method: 'standard' | 'instant';
  type: 'bank_account';
}

export interface FakePaymentIntent {
  id: string;
  object: 'payment_intent';
  amount: number;
  currency: string;
  status: 'processing' | 'succeeded' | 'requires_payment_method';
  metadata: Record<string, string>;
  latest_charge: string | null;
}

export interface FakeStripe {
  url: string;
  secretKey: string;
  webhookSecret: string;
  sessions: Map<string, FakeSession>;
  paymentIntents: Map<string, FakePaymentIntent>;
  charges: Map<string, FakeCharge>;
  balanceTransactions: Map<string, FakeBalanceTransaction>;
  payouts: Map<string, FakePayout>;
  /** The query of every payouts list call, for assertions. */
  payoutLists: URLSearchParams[];
  /** Form fields of every create call, for assertions. */
  created: Array<Record<string, string>>;
  /** Requests to endpoints the fake does not know ("METHOD /path"): tests expect none. */
  unexpected: string[];
  /** The next `times` create calls answer with this HTTP status (the SDK retries, so more than one). */
  failNextCreate(status?: number, times?: number): void;
  /** The next `times` retrieve calls (sessions and payment intents) answer with this HTTP status. */
  failNextRetrieve(status?: number, times?: number): void;
  /**
   * The buyer paid (amountTotal: what they paid after a promotion code; customer: what Checkout
   * collected; method: the payment method type). The charge gets a balance transaction with
   * Stripe's New Zealand card fee (2.7 % + 30 c).
   */
  pay(
    id: string,
    options?: { amountTotal?: number; customer?: FakeSession['customer_details']; method?: string },
  ): FakeSession;
  expire(id: string): FakeSession;
  /** The buyer opened an expired session's recovery link: a new open session for the same cart. */
  recover(id: string): FakeSession;
  /** Checkout finished with a delayed payment method: complete but not paid yet. */
  completeUnpaid(id: string): FakeSession;
  /** The delayed payment failed (the session stays complete and unpaid). */
  failPayment(id: string): FakeSession;
  /** Refunds the session's charge (all of it unless `amount` is given); returns the charge for the event. */
  refund(id: string, amount?: number): FakeCharge;
  /**
   * A payout to the owner's bank arriving on `arrival` (Stripe's arrival_date: that day's midnight
   * UTC); pending unless `status` says otherwise. Change its status later through `payouts`.
   */
  payout(options: { amount: number; arrival: string; status?: FakePayout['status'] }): FakePayout;
  /** A signed webhook delivery for an event about a session (or a charge refund). */
  signedEvent(
    type: string,
    object: object,
    eventId?: string,
  ): { body: string; signature: string; id: string };
  close(): Promise<void>;
}

let counter = 0;

/** `metadata[purchaseId]` → {purchaseId}; `payment_intent_data[metadata][x]` with that prefix. */
function nested(form: Record<string, string>, prefix: string): Record<string, string> {
  const found: Record<string, string> = {};
  for (const [key, value] of Object.entries(form)) {
    if (key.startsWith(`${prefix}[`) && key.endsWith(']')) found[key.slice(prefix.length + 1, -1)] = value;
  }
  return found;
}

export async function startFakeStripe(): Promise<FakeStripe> {
  const sessions = new Map<string, FakeSession>();
  const intentMetadata = new Map<string, Record<string, string>>();
  const paymentIntents = new Map<string, FakePaymentIntent>();
  const charges = new Map<string, FakeCharge>();
  const balanceTransactions = new Map<string, FakeBalanceTransaction>();
  const payouts = new Map<string, FakePayout>();
  const payoutLists: URLSearchParams[] = [];
  const created: Array<Record<string, string>> = [];
  const unexpected: string[] = [];
  const failures = { create: { status: 0, times: 0 }, retrieve: { status: 0, times: 0 } };
  const secretKey = 'sk_test_fake_0123456789';
  const webhookSecret = 'whsec_fake_0123456789';

  const failing = (kind: keyof typeof failures) => {
    const rule = failures[kind];
    if (rule.times <= 0) return 0;
    rule.times--;
    return rule.status;
  };

  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    req.on('end', () => {
      const send = (status: number, body: object) => {
        res.writeHead(status, { 'Content-Type': 'application/json', 'Request-Id': `req_${++counter}` });
        res.end(JSON.stringify(body));
      };
      const missing = (what: string) =>
        send(404, {
          error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such ${what}` },
        });
      if (req.headers.authorization !== `Bearer ${secretKey}`) {
        return send(401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } });
      }
      const url = new URL(req.url ?? '/', 'http://fake');
      if (req.method === 'POST' && url.pathname === '/v1/checkout/sessions') {
        const status = failing('create');
        if (status)
          return send(status, { error: { type: 'api_error', message: 'Stripe is having a bad day' } });
        const form = Object.fromEntries(new URLSearchParams(raw));
        created.push(form);
        const id = `cs_test_${++counter}_${Math.random().toString(36).slice(2, 10)}`;
        const session: FakeSession = {
          id,
          object: 'checkout.session',
          url: `https://checkout.stripe.test/pay/${id}`,
          mode: form.mode ?? 'payment',
          status: 'open',
          payment_status: 'unpaid',
          payment_intent: null,
          customer_email: form.customer_email ?? null,
          // Every line item's price times its quantity, as Stripe totals a cart.
          amount_total: Object.entries(form)
            .filter(([key]) => /^line_items\[\d+\]\[price_data\]\[unit_amount\]$/.test(key))
            .reduce((sum, [key, value]) => {
              const quantity = form[key.replace('[price_data][unit_amount]', '[quantity]')] ?? '1';
              return sum + Number(value) * Number(quantity);
            }, 0),
          currency: form['line_items[0][price_data][currency]'] ?? 'nzd',
          metadata: nested(form, 'metadata'),
          success_url: form.success_url ?? '',
          cancel_url: form.cancel_url ?? '',
          customer_details: null,
          recovered_from: null,
          after_expiration:
            form['after_expiration[recovery][enabled]'] === 'true'
              ? { recovery: { enabled: true, url: null } }
              : null,
        };
        sessions.set(id, session);
        intentMetadata.set(id, nested(form, 'payment_intent_data[metadata]'));
        return send(200, session);
      }
      const retrieveSession = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(url.pathname);
      if (req.method === 'GET' && retrieveSession) {
        const status = failing('retrieve');
        if (status)
          return send(status, { error: { type: 'api_error', message: 'Stripe is having a bad day' } });
        const session = sessions.get(decodeURIComponent(retrieveSession[1]!));
        return session ? send(200, session) : missing('checkout.session');
      }
      const retrieveIntent = /^\/v1\/payment_intents\/([^/]+)$/.exec(url.pathname);
      if (req.method === 'GET' && retrieveIntent) {
        const status = failing('retrieve');
        if (status)
          return send(status, { error: { type: 'api_error', message: 'Stripe is having a bad day' } });
        const intent = paymentIntents.get(decodeURIComponent(retrieveIntent[1]!));
        if (!intent) return missing('payment_intent');
        const expand = [...url.searchParams.entries()]
          .filter(([key]) => key.startsWith('expand'))
          .map(([, value]) => value);
        const charge = intent.latest_charge ? charges.get(intent.latest_charge) : undefined;
        return send(200, {
          ...intent,
          latest_charge: expand.includes('latest_charge') && charge ? charge : intent.latest_charge,
        });
      }
      const retrieveTransaction = /^\/v1\/balance_transactions\/([^/]+)$/.exec(url.pathname);
      if (req.method === 'GET' && retrieveTransaction) {
        const transaction = balanceTransactions.get(decodeURIComponent(retrieveTransaction[1]!));
        return transaction ? send(200, transaction) : missing('balance_transaction');
      }
      if (req.method === 'GET' && url.pathname === '/v1/payouts') {
        payoutLists.push(url.searchParams);
        return send(200, listPayouts(url.searchParams));
      }
      unexpected.push(`${req.method} ${url.pathname}`);
      send(404, {
        error: {
          type: 'invalid_request_error',
          message: `Unrecognized request URL (${req.method}: ${url.pathname})`,
        },
      });
    });
  });
  /** As Stripe lists: newest first, filtered by arrival_date[gte|gt|lte|lt], `limit` after `starting_after`. */
  function listPayouts(query: URLSearchParams) {
    const bound = (op: string) => {
      const value = query.get(`arrival_date[${op}]`);
      return value === null ? undefined : Number(value);
    };
    const [gte, gt, lte, lt] = ['gte', 'gt', 'lte', 'lt'].map(bound);
    const matching = [...payouts.values()]
      .filter(
        (payout) =>
          (gte === undefined || payout.arrival_date >= gte) &&
          (gt === undefined || payout.arrival_date > gt) &&
          (lte === undefined || payout.arrival_date <= lte) &&
          (lt === undefined || payout.arrival_date < lt),
      )
      .reverse();
    const after = query.get('starting_after');
    const start = after ? matching.findIndex((payout) => payout.id === after) + 1 : 0;
    const limit = Math.min(100, Number(query.get('limit') ?? 10));
    const data = matching.slice(start, start + limit);
    return { object: 'list', url: '/v1/payouts', has_more: start + limit < matching.length, data };
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const signer = new Stripe(secretKey);

  const session = (id: string) => {
    const found = sessions.get(id);
    if (!found) throw new Error(`no fake session ${id}`);
    return found;
  };

  /** The session's payment intent and charge, made when the buyer first pays or submits. */
  const intentFor = (id: string, status: FakePaymentIntent['status']) => {
    const current = session(id);
    const intentId = current.payment_intent ?? `pi_${id.slice(8)}`;
    const existing = paymentIntents.get(intentId);
    if (existing) {
      existing.status = status;
      return intentId;
    }
    const chargeId = `ch_${id.slice(8)}`;
    paymentIntents.set(intentId, {
      id: intentId,
      object: 'payment_intent',
      amount: current.amount_total,
      currency: current.currency,
      status,
      metadata: intentMetadata.get(id) ?? {},
      latest_charge: chargeId,
    });
    charges.set(chargeId, {
      id: chargeId,
      object: 'charge',
      amount: current.amount_total,
      amount_refunded: 0,
      refunded: false,
      payment_intent: intentId,
      // Stripe does not copy the payment intent's metadata onto the charge.
      metadata: {},
      balance_transaction: null,
      payment_method_details: { type: 'card' },
    });
    return intentId;
  };

  return {
    url: `http://127.0.0.1:${port}`,
    secretKey,
    webhookSecret,
    sessions,
    paymentIntents,
    charges,
    balanceTransactions,
    payouts,
    payoutLists,
    created,
    unexpected,
    failNextCreate(status = 500, times = 5) {
      failures.create = { status, times };
    },
    failNextRetrieve(status = 500, times = 5) {
      failures.retrieve = { status, times };
    },
    pay(id, options = {}) {
      if (options.amountTotal !== undefined) session(id).amount_total = options.amountTotal;
      if (options.customer) session(id).customer_details = options.customer;
      const intentId = intentFor(id, 'succeeded');
      const charge = charges.get(paymentIntents.get(intentId)!.latest_charge!)!;
      if (options.method) charge.payment_method_details = { type: options.method };
      if (!charge.balance_transaction) {
        const fee = Math.round(charge.amount * 0.027) + 30;
        const transaction: FakeBalanceTransaction = {
          id: `txn_${charge.id.slice(3)}`,
          object: 'balance_transaction',
          amount: charge.amount,
          fee,
          net: charge.amount - fee,
          currency: session(id).currency,
          available_on: Math.floor(Date.now() / 1000) + 2 * 86_400,
          type: 'charge',
          source: charge.id,
        };
        balanceTransactions.set(transaction.id, transaction);
        charge.balance_transaction = transaction.id;
      }
      return Object.assign(session(id), {
        status: 'complete',
        payment_status: 'paid',
        payment_intent: intentId,
      } as const);
    },
    expire(id) {
      const expired = Object.assign(session(id), { status: 'expired' } as const);
      // Stripe makes the recovery link when a session with recovery enabled expires.
      if (expired.after_expiration)
        expired.after_expiration.recovery.url = `https://checkout.stripe.test/recover/${id}`;
      return expired;
    },
    recover(id) {
      const expired = session(id);
      const newId = `cs_test_${++counter}_${Math.random().toString(36).slice(2, 10)}`;
      const recovered: FakeSession = {
        ...expired,
        id: newId,
        url: `https://checkout.stripe.test/pay/${newId}`,
        status: 'open',
        payment_status: 'unpaid',
        payment_intent: null,
        metadata: { ...expired.metadata },
        recovered_from: id,
        after_expiration: null,
      };
      sessions.set(newId, recovered);
      intentMetadata.set(newId, intentMetadata.get(id) ?? {});
      return recovered;
    },
    completeUnpaid(id) {
      const intentId = intentFor(id, 'processing');
      return Object.assign(session(id), {
        status: 'complete',
        payment_status: 'unpaid',
        payment_intent: intentId,
      } as const);
    },
    failPayment(id) {
      intentFor(id, 'requires_payment_method');
      return session(id);
    },
    refund(id, amount) {
      const intent = paymentIntents.get(session(id).payment_intent ?? '');
      const charge = intent?.latest_charge ? charges.get(intent.latest_charge) : undefined;
      if (!charge) throw new Error(`fake session ${id} has no charge to refund`);
      charge.amount_refunded = Math.min(charge.amount, charge.amount_refunded + (amount ?? charge.amount));
      charge.refunded = charge.amount_refunded === charge.amount;
      return { ...charge };
    },
    payout({ amount, arrival, status = 'pending' }) {
      const payout: FakePayout = {
        id: `po_${++counter}_${Math.random().toString(36).slice(2, 10)}`,
        object: 'payout',
        amount,
        currency: 'nzd',
        arrival_date: Date.parse(`${arrival}T00:00:00Z`) / 1000,
        created: Math.floor(Date.now() / 1000),
        status,
        automatic: true,
        method: 'standard',
        type: 'bank_account',
      };
      payouts.set(payout.id, payout);
      return payout;
    },
    signedEvent(type, object, eventId = `evt_${++counter}_${Math.random().toString(36).slice(2, 8)}`) {
      const body = JSON.stringify({
        id: eventId,
        object: 'event',
        type,
        api_version: Stripe.API_VERSION,
        created: Math.floor(Date.now() / 1000),
        data: { object },
      });
      return {
        body,
        signature: signer.webhooks.generateTestHeaderString({ payload: body, secret: webhookSecret }),
        id: eventId,
      };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * A Checkout Session for a pending purchase, opened as the checkout route opens one (the session and its
 * payment name the purchase) and stored on the purchase; answers the session's id.
 */
export async function openCheckoutSession(
  env: Pick<TestEnv, 'config' | 'database'>,
  purchase: { id: string; amountCents: number },
  options: { productName?: string; customerEmail?: string; metadata?: Record<string, string> } = {},
): Promise<string> {
  const metadata = { purchaseId: purchase.id, ...options.metadata };
  const session = await createStripe(env.config)!.checkout.sessions.create({
    mode: 'payment',
    ...(options.customerEmail && { customer_email: options.customerEmail }),
    line_items: [
      {
        quantity: 1,
        price_data: {
          currency: 'nzd',
          unit_amount: purchase.amountCents,
          product_data: { name: options.productName ?? 'x' },
        },
      },
    ],
    metadata,
    payment_intent_data: { metadata },
  });
  await env.database.db
    .update(purchases)
    .set({ checkoutSessionId: session.id })
    .where(eq(purchases.id, purchase.id));
  return session.id;
}

/**
 * Serves the fake's hosted payment page (the session URL, https://checkout.stripe.test/pay/{id}) in a
 * browser context: its Pay link marks the session paid and returns to the success URL, as Stripe does.
 */
export async function routeCheckoutPages(context: BrowserContext, stripe: FakeStripe): Promise<void> {
  await context.route('https://checkout.stripe.test/**', async (route) => {
    const url = new URL(route.request().url());
    const [, , id, action] = url.pathname.split('/');
    const session = stripe.sessions.get(id ?? '');
    if (!session) return route.fulfill({ status: 404, body: 'No such session' });
    if (action === 'complete') {
      stripe.pay(session.id);
      return route.fulfill({
        status: 303,
        headers: { Location: session.success_url.replace('{CHECKOUT_SESSION_ID}', session.id) },
      });
    }
    await route.fulfill({
      contentType: 'text/html',
      body: `<!doctype html><title>Fake Checkout</title><h1>Pay ${session.customer_email}</h1>
        <p id="amount">${(session.amount_total / 100).toFixed(2)} ${session.currency.toUpperCase()}</p>
        <a id="pay" href="/pay/${session.id}/complete">Pay</a>
        <a id="cancel" href="${session.cancel_url}">Back</a>`,
    });
  });
}
