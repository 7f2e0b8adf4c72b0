import { randomUUID } from 'node:crypto';
import { UnrecoverableError, type Job } from 'bullmq';
import { eq } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { purchases, sales, stripeEvents } from '@app/shared/db';
import { createLogger } from '@app/shared/logger';
import { fulfilCheckoutSession } from '@app/shared/sales';
import { createStripe } from '@app/shared/stripe';
import { createVideo } from '../../../test/support/factories.ts';
import type { WorkerContext } from '../context.ts';
import { recordSale } from './record-sale.ts';
import { useTestWorld } from '../../../test/support/world.ts';

const { env, stripe, producer } = useTestWorld({ stripe: true, producer: true });
let context: WorkerContext & { job: Job };

beforeAll(async () => {
  context = {
    db: env.database.db,
    config: env.config,
    stripe: createStripe(env.config),
    producer,
    logger: createLogger({ name: 't', level: 'silent' }),
  } as unknown as WorkerContext & { job: Job };
});
beforeEach(async () => {
  await producer.queue('purchase-receipt').obliterate({ force: true });
});

/** A purchase and its Checkout Session, made the way the checkout route makes them. */
async function pendingPurchase(priceCents = 1800) {
  const video = await createVideo(env.database.db, { priceCents });
  const id = randomUUID();
  await env.database.db.insert(purchases).values({
    id,
    videoId: video.id,
    buyerName: 'Mere',
    buyerEmail: 'mere@example.nz',
    amountCents: priceCents,
    currency: 'nzd',
  });
  const metadata = { purchaseId: id, videoId: video.id };
  const session = await createStripe(env.config)!.checkout.sessions.create({
    mode: 'payment',
    line_items: [
      { quantity: 1, price_data: { currency: 'nzd', unit_amount: priceCents, product_data: { name: 'x' } } },
    ],
    metadata,
    payment_intent_data: { metadata },
  });
  await env.database.db.update(purchases).set({ checkoutSessionId: session.id }).where(eq(purchases.id, id));
  return { id, sessionId: session.id, videoId: video.id };
}

const row = async (id: string) =>
  (await env.database.db.select().from(purchases).where(eq(purchases.id, id)))[0]!;
const salesOf = (id: string) => env.database.db.$count(sales, eq(sales.purchaseId, id));
const receipts = () => producer.queue('purchase-receipt').getJobCounts('waiting', 'delayed');

describe('record-sale', () => {
  it('records one sale and queues one receipt however often it runs', async () => {
    const { id, sessionId } = await pendingPurchase();
    stripe.pay(sessionId);
    const payload = {
      kind: 'checkout',
      checkoutSessionId: sessionId,
      eventId: 'evt_twice',
      eventType: 'checkout.session.completed',
    } as const;
    expect(await recordSale(payload, context)).toMatchObject({
      status: 'done',
      purchase: 'paid',
      saleRecorded: true,
    });
    expect(await recordSale(payload, context)).toMatchObject({ status: 'skipped', purchase: 'paid' });
    expect(await Promise.all([recordSale(payload, context), recordSale(payload, context)])).toEqual([
      expect.objectContaining({ status: 'skipped' }),
      expect.objectContaining({ status: 'skipped' }),
    ]);
    expect(await salesOf(id)).toBe(1);
    expect(await row(id)).toMatchObject({ status: 'paid', paymentIntentId: `pi_${sessionId.slice(8)}` });
    expect(await receipts()).toEqual({ waiting: 1, delayed: 0 });
    expect(await env.database.db.$count(stripeEvents, eq(stripeEvents.id, 'evt_twice'))).toBe(1);
  });

  it('still queues the receipt when a crash came between the sale and the enqueue', async () => {
    const { id, sessionId } = await pendingPurchase();
    stripe.pay(sessionId);
    // The first attempt wrote the sale, then the worker died before queuing the receipt.
    await fulfilCheckoutSession(env.database.db, createStripe(env.config)!, sessionId);
    expect(await receipts()).toEqual({ waiting: 0, delayed: 0 });
    expect(await recordSale({ kind: 'checkout', checkoutSessionId: sessionId }, context)).toMatchObject({
      status: 'skipped',
    });
    expect(await receipts()).toEqual({ waiting: 1, delayed: 0 });
    expect(await salesOf(id)).toBe(1);
  });

  it('answers a check of a purchase a webhook already settled without asking Stripe again', async () => {
    const { id, sessionId } = await pendingPurchase();
    stripe.pay(sessionId);
    await recordSale({ kind: 'checkout', checkoutSessionId: sessionId, eventId: 'evt_first' }, context);
    stripe.failNextRetrieve(500, 10);
    try {
      expect(await recordSale({ kind: 'checkout', checkoutSessionId: sessionId }, context)).toMatchObject({
        status: 'skipped',
        purchase: 'paid',
      });
    } finally {
      stripe.failNextRetrieve(500, 0);
    }
    expect(await salesOf(id)).toBe(1);
  });

  it('records an offline payment once, with an offline_ transaction id', async () => {
    const video = await createVideo(env.database.db, { priceCents: 4000 });
    const id = randomUUID();
    await env.database.db.insert(purchases).values({
      id,
      videoId: video.id,
      checkoutSessionId: `offline_${id}`,
      buyerName: 'Tama',
      buyerEmail: 'tama@example.nz',
      amountCents: 3500,
      currency: 'nzd',
      source: 'offline',
    });
    expect(await recordSale({ kind: 'offline', purchaseId: id }, context)).toMatchObject({ status: 'done' });
    expect(await recordSale({ kind: 'offline', purchaseId: id }, context)).toMatchObject({
      status: 'skipped',
    });
    const recorded = await env.database.db.select().from(sales).where(eq(sales.purchaseId, id));
    expect(recorded).toEqual([
      expect.objectContaining({ transactionId: `offline_${id}`, amountCents: 3500 }),
    ]);
    expect((await row(id)).status).toBe('paid');
  });

  it('skips sessions and payments that are not ours', async () => {
    const stranger = await createStripe(env.config)!.checkout.sessions.create({
      mode: 'payment',
      line_items: [],
    });
    stripe.pay(stranger.id);
    expect(await recordSale({ kind: 'checkout', checkoutSessionId: stranger.id }, context)).toMatchObject({
      status: 'skipped',
      reason: 'not our payment',
    });
    stripe.refund(stranger.id);
    expect(
      await recordSale(
        { kind: 'refund', paymentIntentId: `pi_${stranger.id.slice(8)}`, eventId: 'evt_foreign' },
        context,
      ),
    ).toMatchObject({ status: 'skipped' });
  });

  it('gives up at once on a permanent Stripe refusal or an unknown purchase, and retries an outage', async () => {
    await expect(
      recordSale({ kind: 'checkout', checkoutSessionId: 'cs_test_missing' }, context),
    ).rejects.toBeInstanceOf(UnrecoverableError);
    await expect(recordSale({ kind: 'offline', purchaseId: randomUUID() }, context)).rejects.toBeInstanceOf(
      UnrecoverableError,
    );
    const { id, sessionId } = await pendingPurchase();
    stripe.pay(sessionId);
    stripe.failNextRetrieve(500, 10);
    const outage = await recordSale({ kind: 'checkout', checkoutSessionId: sessionId }, context).catch(
      (error: unknown) => error,
    );
    expect(outage).toBeInstanceOf(Error);
    expect(outage).not.toBeInstanceOf(UnrecoverableError);
    stripe.failNextRetrieve(500, 0);
    expect((await row(id)).status).toBe('pending');
    expect(await recordSale({ kind: 'checkout', checkoutSessionId: sessionId }, context)).toMatchObject({
      status: 'done',
    });
  });
});
