import { eq } from 'drizzle-orm';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { purchases, sales } from '@app/shared/db';
import { hashPassword } from '@app/shared/password';
import { createTestEnv, type TestEnv } from '../../../../test/support/test-env.ts';
import { createTestApp, type TestApp } from '../../../../test/support/app.ts';
import { createShowcase, createVideo } from '../../../../test/support/factories.ts';
import { drain, startTestWorker, type TestWorker } from '../../../../test/support/worker.ts';
import { startFakeStripe, type FakeStripe } from '../../../../test/support/fake-stripe.ts';
import { startSmtpCapture, type CapturedMail } from '../../../../test/support/smtp.ts';

let env: TestEnv;
let api: TestApp;
let stripe: FakeStripe;
let worker: TestWorker;
let smtp: CapturedMail;

beforeAll(async () => {
  [stripe, smtp] = await Promise.all([startFakeStripe(), startSmtpCapture()]);
  env = await createTestEnv({
    STRIPE_SECRET_KEY: stripe.secretKey,
    STRIPE_WEBHOOK_SECRET: stripe.webhookSecret,
    STRIPE_API_URL: stripe.url,
    SMTP_URL: smtp.url,
  });
  api = createTestApp(env);
  worker = startTestWorker(env);
});
afterAll(async () => {
  await worker.close();
  await api.close();
  await env.cleanup();
  await Promise.all([stripe.close(), smtp.close()]);
});

const buyer = { customerName: 'Aroha Smith', customerEmail: 'aroha@example.nz' };

async function deliver(type: string, object: object, eventId?: string) {
  const event = stripe.signedEvent(type, object, eventId);
  return request(api.app)
    .post('/api/stripe/webhook')
    .set('Content-Type', 'application/json')
    .set('Stripe-Signature', event.signature)
    .send(event.body);
}

async function checkout(videoId: string, extra: object = {}) {
  const response = await request(api.app)
    .post('/api/checkout')
    .send({ videoId, ...buyer, ...extra })
    .expect(201);
  return response.body as { url: string; sessionId: string };
}

describe('the video library', () => {
  it('lists videos in showcase order, never exposing password hashes or storage keys', async () => {
    const { db } = env.database;
    const later = await createShowcase(db, { orderPriority: 5 });
    const first = await createShowcase(db, { orderPriority: 1 });
    await createVideo(db, { title: 'loose', showcaseId: null });
    await createVideo(db, { title: 'in later', showcaseId: later.id });
    await createVideo(db, {
      title: 'in first',
      showcaseId: first.id,
      passwordProtected: true,
      passwordHash: await hashPassword('s3cret'),
    });
    const response = await request(api.app).get('/api/videos').expect(200);
    expect(response.body.map((video: { title: string }) => video.title).slice(0, 3)).toEqual([
      'in first',
      'in later',
      'loose',
    ]);
    expect(JSON.stringify(response.body)).not.toMatch(/passwordHash|awsKey|scrypt/);
    await request(api.app).get('/api/videos/no-such-video').expect(404);
  });
});

describe('password-protected videos', () => {
  it('gives a token for the right password only, bound to that video', async () => {
    const { db } = env.database;
    const video = await createVideo(db, {
      passwordProtected: true,
      passwordHash: await hashPassword('encore'),
    });
    const other = await createVideo(db, {
      passwordProtected: true,
      passwordHash: await hashPassword('encore'),
    });
    await request(api.app)
      .post('/api/verify-video-password')
      .send({ videoId: video.id, password: 'nope' })
      .expect(401);
    const { body } = await request(api.app)
      .post('/api/verify-video-password')
      .send({ videoId: video.id, password: 'encore' })
      .expect(200);
    expect(body).toEqual({ token: expect.any(String), expiresAt: expect.any(String) });

    await request(api.app).post(`/api/video-stream/${video.id}`).send({}).expect(401);
    const stream = await request(api.app)
      .post(`/api/video-stream/${video.id}`)
      .send({ verificationToken: body.token })
      .expect(200);
    expect(stream.body.streamUrl).toContain('/api/files/');
    await request(api.app)
      .post(`/api/video-stream/${other.id}`)
      .send({ verificationToken: body.token })
      .expect(401);
    await request(api.app)
      .post(`/api/video-stream/${video.id}`)
      .send({ verificationToken: `${body.token}x` })
      .expect(401);
  });
});

describe('checkout and fulfilment', () => {
  it('creates a pending purchase and a Stripe Checkout Session for a paid video', async () => {
    const video = await createVideo(env.database.db, { priceCents: 2500 });
    const { url, sessionId } = await checkout(video.id);
    expect(url).toMatch(/^https:\/\/checkout\.stripe\.test\//);
    const form = stripe.created.at(-1)!;
    expect(form).toMatchObject({
      mode: 'payment',
      customer_email: buyer.customerEmail,
      allow_promotion_codes: 'true',
      'line_items[0][price_data][currency]': 'nzd',
      'line_items[0][price_data][unit_amount]': '2500',
      'metadata[videoId]': video.id,
    });
    expect(form.success_url).toContain(`session_id={CHECKOUT_SESSION_ID}&video_id=${video.id}`);
    const [purchase] = await env.database.db
      .select()
      .from(purchases)
      .where(eq(purchases.checkoutSessionId, sessionId));
    expect(purchase).toMatchObject({ status: 'pending', amountCents: 2500, buyerEmail: buyer.customerEmail });
  });

  it('refuses free videos, unknown videos and protected videos without a token', async () => {
    const free = await createVideo(env.database.db, { priceCents: 0 });
    await request(api.app)
      .post('/api/checkout')
      .send({ videoId: free.id, ...buyer })
      .expect(400);
    await request(api.app)
      .post('/api/checkout')
      .send({ videoId: 'missing', ...buyer })
      .expect(404);
    const locked = await createVideo(env.database.db, {
      priceCents: 900,
      passwordProtected: true,
      passwordHash: await hashPassword('x'),
    });
    await request(api.app)
      .post('/api/checkout')
      .send({ videoId: locked.id, ...buyer })
      .expect(401);
    await request(api.app)
      .post('/api/checkout')
      .send({ videoId: free.id, customerEmail: 'nope' })
      .expect(400);
  });

  it('answers 503 with the unavailable notice when Stripe fails', async () => {
    const video = await createVideo(env.database.db, { priceCents: 1500 });
    stripe.failNextCreate(500);
    const response = await request(api.app)
      .post('/api/checkout')
      .send({ videoId: video.id, ...buyer })
      .expect(503);
    expect(response.body).toEqual({ message: 'Payment System Temporarily Unavailable' });
  });

  it('refuses webhooks with a bad or missing signature, queuing nothing', async () => {
    const event = stripe.signedEvent('checkout.session.completed', { id: 'cs_x' });
    await request(api.app)
      .post('/api/stripe/webhook')
      .set('Content-Type', 'application/json')
      .send(event.body)
      .expect(400);
    await request(api.app)
      .post('/api/stripe/webhook')
      .set('Content-Type', 'application/json')
      .set('Stripe-Signature', event.signature)
      .send(event.body.replace('cs_x', 'cs_y'))
      .expect(400);
    expect(await worker.producer.queue('record-sale').getJobCounts()).toMatchObject({
      waiting: 0,
      active: 0,
      completed: 0,
    });
  });

  it('records one sale per payment however often and in whatever order Stripe delivers, then e-mails a receipt', async () => {
    const video = await createVideo(env.database.db, { priceCents: 2500, title: 'Senior Contemporary' });
    const { sessionId } = await checkout(video.id);
    await request(api.app)
      .get(`/api/purchases/${sessionId}`)
      .expect(200, { status: 'pending', videoId: video.id });

    const session = stripe.pay(sessionId);
    const completed = await deliver('checkout.session.completed', session);
    expect(completed.status).toBe(200);
    await deliver('checkout.session.completed', session, undefined); // a second event for the same payment
    await deliver('checkout.session.async_payment_failed', session); // out of order: already paid
    await drain(worker.producer, 'record-sale');

    const status = await request(api.app).get(`/api/purchases/${sessionId}`).expect(200);
    expect(status.body).toEqual({
      status: 'paid',
      videoId: video.id,
      downloadUrl: `/video/${video.id}/download?session_id=${sessionId}`,
    });
    expect(await env.database.db.$count(sales, eq(sales.videoId, video.id))).toBe(1);
    const mail = await smtp.waitFor((message) => message.subject === 'Your video: Senior Contemporary');
    expect(mail.text).toContain(`/video/${video.id}/download?session_id=${sessionId}`);

    // The purchase opens this video, and only this one.
    const download = await request(api.app).post(`/api/download/${video.id}`).send({ sessionId }).expect(200);
    const other = await createVideo(env.database.db, { priceCents: 2500 });
    await request(api.app).post(`/api/download/${other.id}`).send({ sessionId }).expect(403);
    await request(api.app).post(`/api/download/${video.id}`).send({}).expect(403);

    // The signed link works, and tampering or expiry breaks it.
    const link = new URL(download.body.downloadUrl);
    await api.deps.storage.put(
      decodeURIComponent(link.pathname.replace('/api/files/', '')),
      Buffer.from('0123456789'),
      'video/mp4',
    );
    const file = await request(api.app)
      .get(`${link.pathname}${link.search}`)
      .set('Range', 'bytes=2-5')
      .expect(206);
    expect(file.headers['content-range']).toBe('bytes 2-5/10');
    expect(file.headers['content-disposition']).toMatch(/attachment/);
    await request(api.app)
      .get(`${link.pathname}${link.search.replace(/sig=[^&]+/, 'sig=forged')}`)
      .expect(403);
    const expired = link.search.replace(/expires=\d+/, 'expires=1000');
    await request(api.app).get(`${link.pathname}${expired}`).expect(403);
  });

  it('ends refunded even when the refund arrives before the payment', async () => {
    const video = await createVideo(env.database.db, { priceCents: 700 });
    const { sessionId } = await checkout(video.id);
    const session = stripe.pay(sessionId);
    await deliver('charge.refunded', {
      id: 'ch_1',
      object: 'charge',
      payment_intent: session.payment_intent,
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    await deliver('checkout.session.completed', session);
    await expect
      .poll(
        async () =>
          (
            await env.database.db.select().from(purchases).where(eq(purchases.checkoutSessionId, sessionId))
          )[0]?.status,
        {
          timeout: 20_000,
        },
      )
      .toBe('refunded');
  });

  it('marks expired sessions expired', async () => {
    const video = await createVideo(env.database.db, { priceCents: 700 });
    const { sessionId } = await checkout(video.id);
    await deliver('checkout.session.expired', stripe.expire(sessionId));
    await drain(worker.producer, 'record-sale');
    await request(api.app)
      .get(`/api/purchases/${sessionId}`)
      .expect(200, { status: 'expired', videoId: video.id });
  });
});
