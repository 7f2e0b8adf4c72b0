import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';

/**
 * A local stand-in for the few Stripe endpoints we call (Checkout Sessions create and retrieve),
 * reached by the real SDK through STRIPE_API_URL. Tests move sessions along with pay/expire/fail
 * and sign webhook events with the real SDK.
 */
export interface FakeSession {
  id: string;
  object: 'checkout.session';
  url: string;
  status: 'open' | 'complete' | 'expired';
  payment_status: 'unpaid' | 'paid' | 'no_payment_required';
  payment_intent: string | null;
  customer_email: string | null;
  amount_total: number;
  currency: string;
  metadata: Record<string, string>;
  success_url: string;
  cancel_url: string;
}

export interface FakeStripe {
  url: string;
  secretKey: string;
  webhookSecret: string;
  sessions: Map<string, FakeSession>;
  /** Form fields of every create call, for assertions. */
  created: Array<Record<string, string>>;
  /** The next `times` create calls answer with this HTTP status (the SDK retries, so more than one). */
  failNextCreate(status?: number, times?: number): void;
  pay(id: string): FakeSession;
  expire(id: string): FakeSession;
  completeUnpaid(id: string): FakeSession;
  /** A signed webhook delivery for an event about a session (or a charge refund). */
  signedEvent(
    type: string,
    object: object,
    eventId?: string,
  ): { body: string; signature: string; id: string };
  close(): Promise<void>;
}

let counter = 0;

export async function startFakeStripe(): Promise<FakeStripe> {
  const sessions = new Map<string, FakeSession>();
  const created: Array<Record<string, string>> = [];
  let failStatus: number | undefined;
  let failures = 0;
  const secretKey = 'sk_test_fake_0123456789';
  const webhookSecret = 'whsec_fake_0123456789';

  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    req.on('end', () => {
      const send = (status: number, body: object) => {
        res.writeHead(status, { 'Content-Type': 'application/json', 'Request-Id': `req_${++counter}` });
        res.end(JSON.stringify(body));
      };
      if (req.headers.authorization !== `Bearer ${secretKey}`) {
        return send(401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } });
      }
      const url = new URL(req.url ?? '/', 'http://fake');
      if (req.method === 'POST' && url.pathname === '/v1/checkout/sessions') {
        if (failStatus && failures > 0) {
          failures--;
          return send(failStatus, { error: { type: 'api_error', message: 'Stripe is having a bad day' } });
        }
        const form = Object.fromEntries(new URLSearchParams(raw));
        created.push(form);
        const id = `cs_test_${++counter}_${Math.random().toString(36).slice(2, 10)}`;
        const metadata: Record<string, string> = {};
        for (const [key, value] of Object.entries(form)) {
          const match = /^metadata\[(\w+)\]$/.exec(key);
          if (match) metadata[match[1]!] = value;
        }
        const session: FakeSession = {
          id,
          object: 'checkout.session',
          url: `https://checkout.stripe.test/pay/${id}`,
          status: 'open',
          payment_status: 'unpaid',
          payment_intent: null,
          customer_email: form.customer_email ?? null,
          amount_total: Number(form['line_items[0][price_data][unit_amount]'] ?? 0),
          currency: form['line_items[0][price_data][currency]'] ?? 'nzd',
          metadata,
          success_url: form.success_url ?? '',
          cancel_url: form.cancel_url ?? '',
        };
        sessions.set(id, session);
        return send(200, session);
      }
      const retrieve = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(url.pathname);
      if (req.method === 'GET' && retrieve) {
        const session = sessions.get(decodeURIComponent(retrieve[1]!));
        return session
          ? send(200, session)
          : send(404, {
              error: {
                type: 'invalid_request_error',
                code: 'resource_missing',
                message: 'No such checkout.session',
              },
            });
      }
      send(404, {
        error: {
          type: 'invalid_request_error',
          message: `Unrecognized request URL (${req.method}: ${url.pathname})`,
        },
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const signer = new Stripe(secretKey);

  const update = (id: string, change: Partial<FakeSession>) => {
    const session = sessions.get(id);
    if (!session) throw new Error(`no fake session ${id}`);
    Object.assign(session, change);
    return session;
  };

  return {
    url: `http://127.0.0.1:${port}`,
    secretKey,
    webhookSecret,
    sessions,
    created,
    failNextCreate(status = 500, times = 5) {
      failStatus = status;
      failures = times;
    },
    pay: (id) =>
      update(id, {
        status: 'complete',
        payment_status: 'paid',
        payment_intent: sessions.get(id)?.payment_intent ?? `pi_${id.slice(8)}`,
      }),
    expire: (id) => update(id, { status: 'expired' }),
    completeUnpaid: (id) =>
      update(id, { status: 'complete', payment_status: 'unpaid', payment_intent: `pi_${id.slice(8)}` }),
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
