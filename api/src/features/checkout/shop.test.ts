import { eq } from 'drizzle-orm';
import request from 'supertest';
import { describe, expect, it, vi } from 'vitest';
import { purchases, sales, stripeEvents, type PurchaseStatus } from '@app/shared/db';
import { hashPassword } from '@app/shared/password';
import { RedisUnavailableError } from '@app/shared/redis';
import { createApp } from '../../app.ts';
import { createShowcase, createVideo } from '../../../../test/support/factories.ts';
import { postStripeWebhook } from '../../../../test/support/app.ts';
import { drain } from '../../../../test/support/worker.ts';
import { useTestWorld } from '../../../../test/support/world.ts';
import { expectErrorLogs } from '../../../../test/support/guards.ts';

const { env, api, stripe, worker, smtp } = useTestWorld({
  api: true,
  worker: true,
  stripe: true,
  smtp: true,
});

const buyer = { customerName: 'Aroha Smith', customerEmail: 'aroha@example.nz' };

function post(event: { body: string; signature?: string }, app = api.app) {
  return postStripeWebhook(app, event);
}

function deliver(type: string, object: object, eventId?: string) {
  return post(stripe.signedEvent(type, object, eventId));
}

/** GET /api/purchases/{session}'s answer for a one-video purchase (a download link once paid). */
function statusBody(
  status: PurchaseStatus,
  video: { id: string; title: string; priceCents: number },
  sessionId?: string,
  // Once paid, the purchase's documents (decision 029): its invoice, and a credit note once refunded.
  documents = status === 'paid' ? 1 : 0,
) {
  const downloadUrl = sessionId && `/video/${video.id}/download?session_id=${sessionId}`;
  return {
    status,
    videoId: video.id,
    ...(downloadUrl && { downloadUrl }),
    amountCents: video.priceCents,
    items: [
      {
        videoId: video.id,
        title: video.title,
        bundleShowcaseId: null,
        amountCents: video.priceCents,
        ...(downloadUrl && { downloadUrl }),
      },
    ],
    ...(documents > 0 && {
      documents: Array.from({ length: documents }, () =>
        expect.objectContaining({ url: expect.stringMatching(/^\/api\/purchases\/.+\.pdf$/) }),
      ),
    }),
  };
}

async function checkout(videoId: string, extra: object = {}) {
  const response = await request(api.app)
    .post('/api/checkout')
    .send({ videoId, ...buyer, ...extra })
    .expect(201);
  return response.body as { url: string; sessionId: string };
}

async function purchaseOf(sessionId: string) {
  const [row] = await env.database.db
    .select()
    .from(purchases)
    .where(eq(purchases.checkoutSessionId, sessionId));
  return row!;
}

const salesOf = async (sessionId: string) =>
  env.database.db.$count(sales, eq(sales.purchaseId, (await purchaseOf(sessionId)).id));

const settled = async () => {
  await drain(worker.producer, 'record-sale');
  await drain(worker.producer, 'purchase-receipt');
};

const jobCounts = () =>
  worker.producer.queue('record-sale').getJobCounts('waiting', 'active', 'delayed', 'completed', 'failed');

describe('checkout', () => {
  it('creates a pending purchase and a Stripe Checkout Session for a paid video', async () => {
    const video = await createVideo(env.database.db, { priceCents: 2500, title: 'Senior Lyrical' });
    const { url, sessionId } = await checkout(video.id);
    expect(url).toMatch(/^https:\/\/checkout\.stripe\.test\//);
    const purchase = await purchaseOf(sessionId);
    expect(purchase).toMatchObject({
      status: 'pending',
      source: 'stripe',
      amountCents: 2500,
      currency: 'nzd',
      buyerEmail: buyer.customerEmail,
      buyerName: buyer.customerName,
    });
    expect(stripe.created.at(-1)).toMatchObject({
      mode: 'payment',
      customer_email: buyer.customerEmail,
      allow_promotion_codes: 'true',
      'line_items[0][quantity]': '1',
      'line_items[0][price_data][currency]': 'nzd',
      'line_items[0][price_data][unit_amount]': '2500',
      'line_items[0][price_data][product_data][name]': 'Senior Lyrical',
      'metadata[purchaseId]': purchase.id,
      'metadata[videoId]': video.id,
      'payment_intent_data[metadata][purchaseId]': purchase.id,
      success_url: `http://localhost:3000/video-purchase-success?session_id={CHECKOUT_SESSION_ID}&video_id=${video.id}`,
      cancel_url: `http://localhost:3000/video/${video.id}/purchase`,
    });
  });

  it('needs a valid token for a protected video, and never takes free or unknown videos', async () => {
    const free = await createVideo(env.database.db, { priceCents: 0 });
    const freeAnswer = await request(api.app)
      .post('/api/checkout')
      .send({ videoId: free.id, ...buyer })
      .expect(400);
    expect(freeAnswer.body.message).toMatch(/free/);
    await request(api.app)
      .post('/api/checkout')
      .send({ videoId: 'missing', ...buyer })
      .expect(404);
    await request(api.app)
      .post('/api/checkout')
      .send({ videoId: free.id, customerEmail: 'nope' })
      .expect(400);

    const locked = await createVideo(env.database.db, {
      priceCents: 900,
      passwordProtected: true,
      passwordHash: await hashPassword('encore'),
    });
    await request(api.app)
      .post('/api/checkout')
      .send({ videoId: locked.id, ...buyer })
      .expect(401);
    await request(api.app)
      .post('/api/checkout')
      .send({ videoId: locked.id, ...buyer, verificationToken: 'forged.token' })
      .expect(401);
    const { body } = await request(api.app)
      .post('/api/verify-video-password')
      .send({ videoId: locked.id, password: 'encore' })
      .expect(200);
    await checkout(locked.id, { verificationToken: body.token });
  });

  it('answers 503 with the unavailable notice when Stripe fails or no key is set, never a stack trace', async () => {
    expectErrorLogs(/Stripe is having a bad day|"url":"\/api\/checkout"/);
    const video = await createVideo(env.database.db, { priceCents: 1500 });
    stripe.failNextCreate(500);
    const failed = await request(api.app)
      .post('/api/checkout')
      .send({ videoId: video.id, ...buyer })
      .expect(503);
    expect(failed.body).toEqual({ message: 'Payment System Temporarily Unavailable', code: 'unavailable' });

    const withoutStripe = createApp({ ...api.deps, stripe: null });
    const before = await env.database.db.$count(purchases);
    const unconfigured = await request(withoutStripe)
      .post('/api/checkout')
      .send({ videoId: video.id, ...buyer })
      .expect(503);
    expect(unconfigured.body).toEqual({
      message: 'Payment System Temporarily Unavailable',
      code: 'unavailable',
    });
    expect(await env.database.db.$count(purchases)).toBe(before);
  });

  it('limits checkouts per visitor', async () => {
    const free = await createVideo(env.database.db, { priceCents: 0 });
    const attempt = () =>
      request(api.app)
        .post('/api/checkout')
        .set('X-Forwarded-For', '198.51.100.30')
        .send({ videoId: free.id, ...buyer });
    for (let index = 0; index < 30; index++) expect((await attempt()).status).toBe(400);
    const limited = await attempt();
    expect(limited.status).toBe(429);
    expect(limited.body.message).toMatch(/Too many checkout attempts/);
  });
});

describe('the Stripe webhook', () => {
  it('refuses a bad or missing signature with 400 and queues nothing', async () => {
    const video = await createVideo(env.database.db, { priceCents: 700 });
    const { sessionId } = await checkout(video.id);
    const event = stripe.signedEvent('checkout.session.completed', stripe.pay(sessionId));
    const before = await jobCounts();
    expect((await post({ body: event.body })).status).toBe(400);
    expect((await post({ body: event.body, signature: 't=1,v1=abc' })).status).toBe(400);
    const tampered = await post({
      body: event.body.replace('"paid"', '"no_payment_required"'),
      signature: event.signature,
    });
    expect(tampered.status).toBe(400);
    expect(tampered.body).toEqual({ message: 'Invalid Stripe signature', code: 'invalid_input' });
    expect(await jobCounts()).toEqual(before);
    expect((await purchaseOf(sessionId)).status).toBe('pending');
  });

  it('acknowledges events that are not ours without queuing anything', async () => {
    const before = await jobCounts();
    const foreign = await deliver('checkout.session.completed', {
      id: 'cs_foreign',
      object: 'checkout.session',
      metadata: {},
    });
    expect(foreign.status).toBe(200);
    expect(foreign.body).toEqual({ received: true, ignored: true });
    expect((await deliver('customer.created', { id: 'cus_1', object: 'customer' })).status).toBe(200);
    expect(
      (await deliver('charge.refunded', { id: 'ch_1', object: 'charge', payment_intent: null })).status,
    ).toBe(200);
    expect(await jobCounts()).toEqual(before);
  });

  it('answers 503 when the job cannot be queued, so Stripe delivers again', async () => {
    expectErrorLogs(/"url":"\/api\/stripe\/webhook"/);
    const video = await createVideo(env.database.db, { priceCents: 700 });
    const { sessionId } = await checkout(video.id);
    const down = createApp({
      ...api.deps,
      producer: {
        ...api.deps.producer,
        enqueue: () => Promise.reject(new RedisUnavailableError('Redis is reconnecting')),
      },
    });
    const event = stripe.signedEvent('checkout.session.completed', stripe.pay(sessionId));
    const refused = await post(event, down);
    expect(refused.status).toBe(503);
    expect(refused.headers['retry-after']).toBeDefined();
    // Stripe's next attempt, with Redis back, settles it.
    expect((await post(event)).status).toBe(200);
    await settled();
    expect((await purchaseOf(sessionId)).status).toBe('paid');
  });
});

describe('purchase status requests', () => {
  const checks = async (sessionId: string) => {
    const [purchase] = await env.database.db
      .select({ id: purchases.id })
      .from(purchases)
      .where(eq(purchases.checkoutSessionId, sessionId));
    const jobs = await worker.producer
      .queue('record-sale')
      .getJobs(['waiting', 'delayed', 'active', 'completed']);
    // The session id is the buyer's download proof: never in a job's id or data (Redis, logs, jobs screen).
    for (const job of jobs) expect(JSON.stringify({ id: job.id, data: job.data })).not.toContain(sessionId);
    return jobs.filter((job) => job.data.kind === 'check' && job.data.purchaseId === purchase?.id).length;
  };

  it("give the session Stripe's expiry and stop asking Stripe once it has passed", async () => {
    const video = await createVideo(env.database.db, { priceCents: 900 });
    const { sessionId } = await checkout(video.id);
    const expiresAt = Number(stripe.created.at(-1)!.expires_at);
    expect(expiresAt * 1000 - Date.now()).toBeGreaterThan(59 * 60_000);
    expect(expiresAt * 1000 - Date.now()).toBeLessThanOrEqual(60 * 60_000);

    await request(api.app).get(`/api/purchases/${sessionId}`).expect(200);
    expect(await checks(sessionId)).toBe(1);
    await settled();
    // Two hours later the session has expired at Stripe: polling reads the row and asks no more.
    await env.database.db
      .update(purchases)
      .set({ createdAt: new Date(Date.now() - 2 * 3600_000) })
      .where(eq(purchases.checkoutSessionId, sessionId));
    // In the next check window (a job id per 5 s), where a session still open would be checked again.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 5_000 });
    try {
      await request(api.app).get(`/api/purchases/${sessionId}`).expect(200, statusBody('pending', video));
    } finally {
      vi.useRealTimers();
    }
    expect(await checks(sessionId)).toBe(1);
  });

  it('are limited per address', async () => {
    const ask = () =>
      request(api.app).get('/api/purchases/cs_test_nobody').set('X-Forwarded-For', '198.51.100.200');
    for (let attempt = 0; attempt < 120; attempt++) expect((await ask()).status).toBe(404);
    const limited = await ask();
    expect(limited.status).toBe(429);
    expect(limited.headers['retry-after']).toMatch(/^\d+$/);
    await request(api.app)
      .get('/api/purchases/cs_test_nobody')
      .set('X-Forwarded-For', '198.51.100.201')
      .expect(404);
  });
});

describe('fulfilment', () => {
  it('records exactly one sale for the same event delivered five times, and five times at once, then e-mails one receipt', async () => {
    const video = await createVideo(env.database.db, { priceCents: 2500, title: 'Senior Contemporary' });
    const { sessionId } = await checkout(video.id);
    await request(api.app).get(`/api/purchases/${sessionId}`).expect(200, statusBody('pending', video));

    const session = stripe.pay(sessionId);
    const event = stripe.signedEvent('checkout.session.completed', session);
    for (let index = 0; index < 5; index++) expect((await post(event)).status).toBe(200);
    const concurrent = await Promise.all(Array.from({ length: 5 }, () => post(event)));
    expect(concurrent.map((response) => response.status)).toEqual([200, 200, 200, 200, 200]);
    // Other events about the same payment, at once.
    const others = ['checkout.session.completed', 'checkout.session.async_payment_succeeded'].map((type) =>
      stripe.signedEvent(type, session),
    );
    await Promise.all([...others, ...others].map((other) => post(other)));
    await settled();

    expect(await salesOf(sessionId)).toBe(1);
    const status = await request(api.app).get(`/api/purchases/${sessionId}`).expect(200);
    expect(status.body).toEqual(statusBody('paid', video, sessionId));
    const purchase = await purchaseOf(sessionId);
    expect(purchase.paymentIntentId).toBe(session.payment_intent);
    expect(purchase.receiptSentAt).not.toBeNull();
    const mail = await smtp.waitFor((message) => message.subject === 'Your video: Senior Contemporary');
    expect(mail.text).toContain(`http://localhost:3000/video/${video.id}/download?session_id=${sessionId}`);
    expect(mail.text).toContain('NZ$25.00');
    expect(
      smtp.messages.filter((message) => message.subject === 'Your video: Senior Contemporary'),
    ).toHaveLength(1);
    expect(await env.database.db.$count(stripeEvents, eq(stripeEvents.id, event.id))).toBe(1);

    // A redelivery long after is acknowledged without queuing again.
    const before = await jobCounts();
    expect((await post(event)).status).toBe(200);
    expect(await jobCounts()).toEqual(before);
  });

  it('fulfils a cart with a bundle once: every item paid, one sale, one receipt, each download open', async () => {
    const solos = await Promise.all(
      ['Cart Solo A', 'Cart Solo B'].map((title) =>
        createVideo(env.database.db, { priceCents: 1500, title }),
      ),
    );
    const showcase = await createShowcase(env.database.db, { name: 'Shop Juniors', bundlePriceCents: 2000 });
    const bundled = await Promise.all(
      [1200, 1200].map((priceCents) => createVideo(env.database.db, { priceCents, showcaseId: showcase.id })),
    );
    const { body } = await request(api.app)
      .post('/api/cart/checkout')
      .send({
        ...buyer,
        items: [...solos.map((video) => ({ videoId: video.id })), { showcaseId: showcase.id }],
      })
      .expect(201);
    const { sessionId } = body as { sessionId: string };
    const pending = await request(api.app).get(`/api/purchases/${sessionId}`).expect(200);
    expect(pending.body).toMatchObject({ status: 'pending', amountCents: 5000 });
    expect(pending.body.items).toHaveLength(3);
    expect(pending.body.items.every((item: object) => !('downloadUrl' in item))).toBe(true);

    // The same completed event, five times at once.
    const event = stripe.signedEvent('checkout.session.completed', stripe.pay(sessionId));
    const answers = await Promise.all(Array.from({ length: 5 }, () => post(event)));
    expect(answers.map((response) => response.status)).toEqual([200, 200, 200, 200, 200]);
    await settled();

    expect(await salesOf(sessionId)).toBe(1);
    const paid = await request(api.app).get(`/api/purchases/${sessionId}`).expect(200);
    const everyVideo = [...solos, ...bundled];
    expect(paid.body.status).toBe('paid');
    expect(paid.body.items.map((item: { videoId: string }) => item.videoId).sort()).toEqual(
      everyVideo.map((video) => video.id).sort(),
    );
    for (const item of paid.body.items as Array<{ videoId: string; downloadUrl: string }>) {
      expect(item.downloadUrl).toBe(`/video/${item.videoId}/download?session_id=${sessionId}`);
      await request(api.app).post(`/api/download/${item.videoId}`).send({ sessionId }).expect(200);
    }
    // The session opens only what it bought.
    const other = await createVideo(env.database.db, { priceCents: 1500 });
    await request(api.app).post(`/api/download/${other.id}`).send({ sessionId }).expect(403);
    const receipts = smtp.messages.filter(
      (message) => message.subject === 'Your 4 videos from Stagelight Studio',
    );
    expect(receipts).toHaveLength(1);
    expect(receipts[0]!.text).toContain('All your videos, any time: http://localhost:3000/my-videos');

    // A full refund closes every item.
    await deliver('charge.refunded', stripe.refund(sessionId));
    await settled();
    for (const video of everyVideo)
      await request(api.app).post(`/api/download/${video.id}`).send({ sessionId }).expect(403);
  });

  it('records what the buyer paid after a promotion code', async () => {
    const video = await createVideo(env.database.db, { priceCents: 2000 });
    const { sessionId } = await checkout(video.id);
    await deliver('checkout.session.completed', stripe.pay(sessionId, { amountTotal: 1500 }));
    await settled();
    const purchase = await purchaseOf(sessionId);
    expect(purchase).toMatchObject({ status: 'paid', amountCents: 1500 });
    const [sale] = await env.database.db.select().from(sales).where(eq(sales.purchaseId, purchase.id));
    expect(sale).toMatchObject({
      amountCents: 1500,
      currency: 'nzd',
      transactionId: purchase.paymentIntentId,
    });
  });

  it('follows a delayed payment that succeeds, whatever the order of its events', async () => {
    const video = await createVideo(env.database.db, { priceCents: 1100 });
    const { sessionId } = await checkout(video.id);
    const submitted = stripe.signedEvent('checkout.session.completed', stripe.completeUnpaid(sessionId));
    await post(submitted);
    await settled();
    expect((await purchaseOf(sessionId)).status).toBe('pending');
    const paid = stripe.pay(sessionId);
    await deliver('checkout.session.async_payment_succeeded', paid);
    await post(submitted); // a late redelivery of the first event
    await deliver('checkout.session.async_payment_failed', paid); // out of order: Stripe says paid
    await settled();
    expect((await purchaseOf(sessionId)).status).toBe('paid');
    expect(await salesOf(sessionId)).toBe(1);
  });

  it('follows a delayed payment that fails, whatever the order of its events', async () => {
    const video = await createVideo(env.database.db, { priceCents: 1100 });
    const { sessionId } = await checkout(video.id);
    const session = stripe.completeUnpaid(sessionId);
    const completed = stripe.signedEvent('checkout.session.completed', session);
    stripe.failPayment(sessionId);
    await deliver('checkout.session.async_payment_failed', session);
    await settled();
    await post(completed); // arrives after the failure
    await settled();
    expect((await purchaseOf(sessionId)).status).toBe('failed');
    expect(await salesOf(sessionId)).toBe(0);
    await request(api.app).get(`/api/purchases/${sessionId}`).expect(200, statusBody('failed', video));
    await request(api.app).post(`/api/download/${video.id}`).send({ sessionId }).expect(403);
  });

  it('revokes access on a full refund, and a later payment event does not bring it back', async () => {
    const video = await createVideo(env.database.db, { priceCents: 1300 });
    const { sessionId } = await checkout(video.id);
    const completed = stripe.signedEvent('checkout.session.completed', stripe.pay(sessionId));
    await post(completed);
    await settled();
    await request(api.app).post(`/api/download/${video.id}`).send({ sessionId }).expect(200);

    // A partial refund leaves the purchase paid.
    await deliver('charge.refunded', stripe.refund(sessionId, 300));
    await settled();
    expect((await purchaseOf(sessionId)).status).toBe('paid');

    await deliver('charge.refunded', stripe.refund(sessionId));
    await settled();
    expect((await purchaseOf(sessionId)).status).toBe('refunded');
    const refunded = await request(api.app).get(`/api/purchases/${sessionId}`).expect(200);
    // The invoice and two credit notes: the partial refund's and the rest's.
    expect(refunded.body).toEqual(statusBody('refunded', video, undefined, 3));
    await request(api.app).post(`/api/download/${video.id}`).send({ sessionId }).expect(403);
    await request(api.app).post(`/api/video-stream/${video.id}`).send({ sessionId }).expect(403);

    await post(completed); // Stripe redelivers the old payment event
    await deliver('checkout.session.async_payment_succeeded', stripe.sessions.get(sessionId)!);
    await settled();
    expect((await purchaseOf(sessionId)).status).toBe('refunded');
    expect(await salesOf(sessionId)).toBe(1);
  });

  it('ends refunded when the refund arrives before the payment', async () => {
    const video = await createVideo(env.database.db, { priceCents: 700 });
    const { sessionId } = await checkout(video.id);
    const session = stripe.pay(sessionId);
    await deliver('charge.refunded', stripe.refund(sessionId));
    await settled();
    await deliver('checkout.session.completed', session);
    await settled();
    const purchase = await purchaseOf(sessionId);
    expect(purchase).toMatchObject({ status: 'refunded', paymentIntentId: session.payment_intent });
    expect(smtp.messages.filter((message) => message.text?.includes(sessionId))).toEqual([]);
  });

  it('marks expired sessions expired', async () => {
    const video = await createVideo(env.database.db, { priceCents: 700 });
    const { sessionId } = await checkout(video.id);
    await deliver('checkout.session.expired', stripe.expire(sessionId));
    await settled();
    await request(api.app).get(`/api/purchases/${sessionId}`).expect(200, statusBody('expired', video));
  });

  it(
    'answers a status request that waits as soon as the sale is recorded, not when its wait runs out',
    { timeout: 15_000 },
    async () => {
      const video = await createVideo(env.database.db, { priceCents: 1500 });
      const { sessionId } = await checkout(video.id);
      const waiting = request(api.app).get(`/api/purchases/${sessionId}?wait=25`);
      const answered = waiting.then((response) => response);
      await expect.poll(() => api.deps.purchaseWaiters.size).toBe(1);

      await deliver('checkout.session.completed', stripe.pay(sessionId));
      const response = await answered;
      expect(response.status).toBe(200);
      expect(response.body).toEqual(statusBody('paid', video, sessionId));
      expect(api.deps.purchaseWaiters.size).toBe(0);
      await settled();
    },
  );

  it('answers a waiting status request with the purchase as it stands when nothing happens', async () => {
    const video = await createVideo(env.database.db, { priceCents: 1500 });
    const { sessionId } = await checkout(video.id);
    await request(api.app)
      .get(`/api/purchases/${sessionId}?wait=1`)
      .expect(200, statusBody('pending', video));
    expect(api.deps.purchaseWaiters.size).toBe(0);
    // A settled purchase is answered at once, whatever the wait.
    await deliver('checkout.session.completed', stripe.pay(sessionId));
    await settled();
    await request(api.app).get(`/api/purchases/${sessionId}?wait=25`).expect(200);
    for (const wait of ['abc', '-1', '1.5', '26']) {
      const refused = await request(api.app).get(`/api/purchases/${sessionId}?wait=${wait}`).expect(400);
      expect(refused.body.message).toBe(
        'Invalid request: wait: must be a whole number of seconds from 0 to 25',
      );
    }
  });

  it('settles through the success page when the webhook never comes', async () => {
    const video = await createVideo(env.database.db, { priceCents: 1900, title: 'Webhook Lost' });
    const { sessionId } = await checkout(video.id);
    stripe.pay(sessionId);
    await expect
      .poll(async () => (await request(api.app).get(`/api/purchases/${sessionId}`)).body.status, {
        timeout: 20_000,
        interval: 300,
      })
      .toBe('paid');
    expect(await salesOf(sessionId)).toBe(1);
    await smtp.waitFor((message) => message.subject === 'Your video: Webhook Lost');
    await request(api.app).post(`/api/download/${video.id}`).send({ sessionId }).expect(200);
    await request(api.app).get('/api/purchases/cs_test_unknown').expect(404);
  });
});
