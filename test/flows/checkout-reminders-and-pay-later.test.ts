import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { purchases, taxDocuments } from '@app/shared/db';
import { postStripeWebhook } from '../support/app.ts';
import { createVideo } from '../support/factories.ts';
import { drain } from '../support/worker.ts';
import { useTestWorld } from '../support/world.ts';

// From the checkout route through Stripe's events to the worker's documents and reminders (decision 029).
const { env, api, agent, stripe, smtp, worker } = useTestWorld({
  api: true,
  admin: true,
  worker: true,
  stripe: true,
  smtp: true,
  env: { GST_REGISTERED: 'true', GST_NUMBER: '49-091-850' },
});

const deliver = (type: string, object: object) =>
  postStripeWebhook(api.app, stripe.signedEvent(type, object)).expect(200);

const settle = async () => {
  for (const queue of ['record-sale', 'checkout-reminder', 'purchase-receipt', 'read-payment-fee'] as const)
    await drain(worker.producer, queue);
};

async function checkout(
  priceCents: number,
  extra: object = {},
  email = `${randomUUID().slice(0, 8)}@example.nz`,
) {
  const video = await createVideo(env.database.db, { priceCents, title: `Duet ${randomUUID().slice(0, 5)}` });
  const { body } = await request(api.app)
    .post('/api/checkout')
    .send({ videoId: video.id, customerName: 'Ana', customerEmail: email, ...extra })
    .expect(201);
  return { ...(body as { sessionId: string }), video, email };
}

const purchaseOf = async (sessionId: string) =>
  (await env.database.db.select().from(purchases).where(eq(purchases.checkoutSessionId, sessionId)))[0]!;

describe('pay later and wallets', () => {
  it('leaves the payment methods to the owner’s dashboard and asks for the address only over NZ$1,000', async () => {
    await checkout(15_000);
    await checkout(120_000);
    const [small, large] = stripe.created.slice(-2);
    for (const form of [small!, large!]) {
      // Nothing that narrows Checkout's methods: cards, Apple Pay, Google Pay, Afterpay/Clearpay, Klarna.
      expect(
        Object.keys(form).filter((key) => /payment_method_(types|options|configuration)/.test(key)),
      ).toEqual([]);
      expect(form.mode).toBe('payment');
      expect(form['payment_method_collection']).toBeUndefined();
    }
    expect(small!.billing_address_collection).toBeUndefined();
    expect(large!.billing_address_collection).toBe('required');
  });

  it('fulfils an Afterpay or Klarna payment when its delayed success arrives, with a tax invoice', async () => {
    const { sessionId } = await checkout(50_000);
    await deliver('checkout.session.completed', stripe.completeUnpaid(sessionId));
    await settle();
    expect((await purchaseOf(sessionId)).status).toBe('pending');
    await deliver(
      'checkout.session.async_payment_succeeded',
      stripe.pay(sessionId, { method: 'afterpay_clearpay' }),
    );
    await settle();
    const purchase = await purchaseOf(sessionId);
    expect(purchase.status).toBe('paid');
    const [document] = await env.database.db
      .select()
      .from(taxDocuments)
      .where(eq(taxDocuments.purchaseId, purchase.id));
    expect(document).toMatchObject({ kind: 'invoice', totalCents: 50_000, gstCents: 6522, registered: true });
    const mail = await smtp.waitFor((message) => JSON.stringify(message.to).includes(purchase.buyerEmail));
    expect(mail.text).toContain('GST number: 49-091-850');
  });

  it('never sells a video that is not published (Afterpay forbids pre-orders)', async () => {
    const video = await createVideo(env.database.db, { priceCents: 3_000, published: false });
    await request(api.app)
      .post('/api/checkout')
      .send({ videoId: video.id, customerName: 'Ana', customerEmail: 'ana@example.nz' })
      .expect(404);
    const cart = await request(api.app)
      .post('/api/cart/checkout')
      .send({ customerName: 'Ana', customerEmail: 'ana@example.nz', items: [{ videoId: video.id }] });
    expect(cart.status).toBe(400);
  });
});

describe('unfinished checkouts', () => {
  const reminders = (email: string) =>
    smtp.messages.filter(
      (message) =>
        message.subject === 'Your videos are still waiting' && JSON.stringify(message.to).includes(email),
    );

  it('with consent: one reminder with Stripe’s recovery link, and a recovered payment is counted', async () => {
    const { sessionId, email } = await checkout(2_000, { remindMe: true });
    expect(stripe.created.at(-1)!['after_expiration[recovery][enabled]']).toBe('true');
    const expired = stripe.expire(sessionId);
    await deliver('checkout.session.expired', expired);
    await deliver('checkout.session.expired', expired);
    await settle();
    const mail = await smtp.waitFor((message) => reminders(email).includes(message));
    expect(mail.text).toContain(`https://checkout.stripe.test/recover/${sessionId}`);
    expect(reminders(email)).toHaveLength(1);

    // The buyer comes back through the link and pays: the same purchase, now paid, counted as recovered.
    const recovered = stripe.recover(sessionId);
    await deliver('checkout.session.completed', stripe.pay(recovered.id));
    await settle();
    const purchase = await purchaseOf(recovered.id);
    expect(purchase).toMatchObject({ status: 'paid', recoveredFromSessionId: sessionId });
    const counts = await agent.get('/api/admin/checkout-reminders').expect(200);
    expect(counts.body).toMatchObject({ recovered: 1, recoveredCents: 2_000 });
    expect(counts.body.remindersSent).toBeGreaterThanOrEqual(1);
  });

  it('without consent, after the buyer paid for the videos, or after unsubscribing: none', async () => {
    const none = await checkout(2_100);
    await deliver('checkout.session.expired', stripe.expire(none.sessionId));

    // Expired, then bought the same video in a new checkout.
    const first = await checkout(2_200, { remindMe: true });
    const again = await request(api.app)
      .post('/api/checkout')
      .send({ videoId: first.video.id, customerName: 'Ana', customerEmail: first.email.toUpperCase() })
      .expect(201);
    await deliver('checkout.session.completed', stripe.pay(again.body.sessionId));
    await settle();
    await deliver('checkout.session.expired', stripe.expire(first.sessionId));

    // Unsubscribed through an earlier reminder's link.
    const earlier = await checkout(2_300, { remindMe: true }, 'kiri@example.nz');
    await deliver('checkout.session.expired', stripe.expire(earlier.sessionId));
    await settle();
    const mail = await smtp.waitFor((message) => reminders('kiri@example.nz').includes(message));
    const link = /http:\/\/localhost:3000(\/api\/checkout-reminders\/unsubscribe\?\S+)/.exec(mail.text!)![1]!;
    await request(api.app)
      .get(link.replace(/token=[^&]+/, 'token=forged-token-value'))
      .expect(400);
    // The link opens a page (a mail scanner's GET unsubscribes nobody); the mail app's one-click POSTs
    // the List-Unsubscribe header's URL, which is the same link.
    await request(api.app).get(link).expect(200);
    const header = mail.headerLines.find((line) => line.key === 'list-unsubscribe')?.line;
    expect(header).toContain(`<http://localhost:3000${link}>`);
    expect(mail.headerLines.find((line) => line.key === 'list-unsubscribe-post')?.line).toMatch(
      /^List-Unsubscribe-Post:\s*List-Unsubscribe=One-Click$/i,
    );
    await request(api.app).post(link).type('form').send('List-Unsubscribe=One-Click').expect(200);
    const later = await checkout(2_400, { remindMe: true }, 'Kiri@Example.nz');
    await deliver('checkout.session.expired', stripe.expire(later.sessionId));
    await settle();

    expect(reminders(none.email)).toEqual([]);
    expect(reminders(first.email)).toEqual([]);
    expect(reminders('kiri@example.nz')).toHaveLength(1);
    expect((await purchaseOf(later.sessionId)).reminderSentAt).toBeNull();
  });
});
