import { randomUUID } from 'node:crypto';
import { UnrecoverableError } from 'bullmq';
import { asc, eq } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { purchases, sales, stripeEvents, purchaseItems, taxDocuments } from '@app/shared/db';
import { fulfilCheckoutSession } from '@app/shared/sales';
import { gstDefaults, type DocumentContent } from '@app/shared/gst';
import { createStripe } from '@app/shared/stripe';
import { createVideo, createPurchase, createShowcase } from '../../../test/support/factories.ts';
import { openCheckoutSession } from '../../../test/support/fake-stripe.ts';
import { recordSale } from './record-sale.ts';
import { useTestWorld } from '../../../test/support/world.ts';

const { env, stripe, context } = useTestWorld({ stripe: true, context: true });

beforeEach(async () => {
  await context.producer.queue('purchase-receipt').obliterate({ force: true });
});

/** A purchase and its Checkout Session, made the way the checkout route makes them. */
async function pendingPurchase(priceCents = 1800) {
  const video = await createVideo(env.database.db, { priceCents });
  const id = randomUUID();
  await createPurchase(env.database.db, {
    id,
    videoId: video.id,
    checkoutSessionId: null,
    buyerName: 'Mere',
    buyerEmail: 'mere@example.nz',
    amountCents: priceCents,
  });
  const sessionId = await openCheckoutSession(
    env,
    { id, amountCents: priceCents },
    { metadata: { videoId: video.id } },
  );
  return { id, sessionId, videoId: video.id };
}

/** A cart of videos and showcase bundles with its Checkout Session, as POST /api/cart/checkout makes it. */
async function pendingCart(videoIds: string[], bundleShowcaseIds: string[], amountCents: number) {
  const purchase = await createPurchase(env.database.db, {
    videoIds,
    bundleShowcaseIds,
    checkoutSessionId: null,
    amountCents,
  });
  return { id: purchase.id, sessionId: await openCheckoutSession(env, purchase) };
}

const itemsOf = (id: string) =>
  env.database.db.select().from(purchaseItems).where(eq(purchaseItems.purchaseId, id));

/** The purchase's items as its receipt lists them; its invoice's lines must say the same. */
const receiptLines = async (id: string) =>
  (
    await env.database.db
      .select()
      .from(purchaseItems)
      .where(eq(purchaseItems.purchaseId, id))
      .orderBy(asc(purchaseItems.position), asc(purchaseItems.title), asc(purchaseItems.id))
  ).map((item) => ({ description: item.title, amountCents: item.amountCents }));
const invoiceLines = async (id: string) => {
  const [invoice] = await env.database.db
    .select({ content: taxDocuments.content })
    .from(taxDocuments)
    .where(eq(taxDocuments.purchaseId, id));
  return (invoice!.content as DocumentContent).lines;
};

const row = async (id: string) =>
  (await env.database.db.select().from(purchases).where(eq(purchases.id, id)))[0]!;
const salesOf = (id: string) => env.database.db.$count(sales, eq(sales.purchaseId, id));
const receipts = () => context.producer.queue('purchase-receipt').getJobCounts('waiting', 'delayed');

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

  it("grants a bundle's videos at payment, once, with one sale, however many deliveries come at once", async () => {
    const single = await createVideo(env.database.db, { priceCents: 1000, title: 'Single' });
    const showcase = await createShowcase(env.database.db, { bundlePriceCents: 2000 });
    const inShowcase = await Promise.all(
      [1500, 1500].map((priceCents) => createVideo(env.database.db, { priceCents, showcaseId: showcase.id })),
    );
    // Not part of a bundle: free, protected and hidden videos of the showcase.
    await createVideo(env.database.db, { priceCents: 0, showcaseId: showcase.id });
    await createVideo(env.database.db, { priceCents: 900, showcaseId: showcase.id, published: false });
    await createVideo(env.database.db, {
      priceCents: 900,
      showcaseId: showcase.id,
      passwordProtected: true,
      passwordHash: 'x',
    });
    const { id, sessionId } = await pendingCart([single.id], [showcase.id], 3000);
    // Added after checkout, before payment: the bundle is what the showcase holds when the buyer pays.
    const late = await createVideo(env.database.db, { priceCents: 1000, showcaseId: showcase.id });
    // A promotion code: the buyer paid 2400 of 3000.
    stripe.pay(sessionId, { amountTotal: 2400 });
    // The same completed event, delivered five times at once.
    const payload = {
      kind: 'checkout',
      checkoutSessionId: sessionId,
      eventId: `evt_bundle_${id}`,
      eventType: 'checkout.session.completed',
    } as const;
    const results = await Promise.all([1, 2, 3, 4, 5].map(() => recordSale(payload, context)));
    expect(results.filter((result) => typeof result === 'object' && result.saleRecorded)).toHaveLength(1);
    expect(await salesOf(id)).toBe(1);
    const [sale] = await env.database.db.select().from(sales).where(eq(sales.purchaseId, id));
    expect(sale).toMatchObject({ amountCents: 2400, videoId: null });
    const items = await itemsOf(id);
    expect(items.map((item) => item.videoId).sort()).toEqual(
      [single.id, ...inShowcase.map((video) => video.id), late.id].sort(),
    );
    expect(items.filter((item) => item.bundleShowcaseId === showcase.id)).toHaveLength(3);
    expect(items.reduce((sum, item) => sum + item.amountCents, 0)).toBe(2400);
    // The single video was a third of the list price, so it carries a third of what was paid.
    expect(items.find((item) => item.videoId === single.id)!.amountCents).toBe(800);
    expect(await row(id)).toMatchObject({ status: 'paid', amountCents: 2400 });
    expect(await invoiceLines(id)).toEqual(await receiptLines(id));
  });

  it('revokes a whole cart on a full refund and keeps it on a partial one', async () => {
    const videos = await Promise.all(
      [1000, 2000, 3000].map((priceCents) => createVideo(env.database.db, { priceCents })),
    );
    const ids = videos.map((video) => video.id);
    const partial = await pendingCart(ids, [], 6000);
    const full = await pendingCart(ids, [], 6000);
    for (const cart of [partial, full]) {
      stripe.pay(cart.sessionId);
      await recordSale(
        { kind: 'checkout', checkoutSessionId: cart.sessionId, eventId: `evt_${cart.id}` },
        context,
      );
    }
    const refund = async (cart: { sessionId: string }, amount?: number) => {
      const charge = stripe.refund(cart.sessionId, amount);
      return recordSale(
        { kind: 'refund', paymentIntentId: charge.payment_intent, eventId: `evt_r_${charge.id}_${amount}` },
        context,
      );
    };
    await refund(partial, 1000);
    await refund(full);
    expect(await row(partial.id)).toMatchObject({ status: 'paid' });
    expect(await row(full.id)).toMatchObject({ status: 'refunded' });
    expect(await itemsOf(full.id)).toHaveLength(3);
    expect(await salesOf(full.id)).toBe(1);
    expect(await invoiceLines(full.id)).toEqual(await receiptLines(full.id));
    expect((await invoiceLines(full.id)).map((line) => line.amountCents)).toEqual([1000, 2000, 3000]);
  });

  it('still queues the receipt when a crash came between the sale and the enqueue', async () => {
    const { id, sessionId } = await pendingPurchase();
    stripe.pay(sessionId);
    // The first attempt wrote the sale, then the worker died before queuing the receipt.
    await fulfilCheckoutSession(
      env.database.db,
      createStripe(env.config)!,
      { gst: gstDefaults(env.config) },
      sessionId,
    );
    expect(await receipts()).toEqual({ waiting: 0, delayed: 0 });
    expect(await recordSale({ kind: 'checkout', checkoutSessionId: sessionId }, context)).toMatchObject({
      status: 'skipped',
    });
    expect(await receipts()).toEqual({ waiting: 1, delayed: 0 });
    expect(await salesOf(id)).toBe(1);
  });

  it("settles a status page's check named by the purchase id, and twice leaves the same", async () => {
    const { id, sessionId } = await pendingPurchase();
    stripe.pay(sessionId);
    for (let run = 0; run < 2; run++) await recordSale({ kind: 'check', purchaseId: id }, context);
    expect(await row(id)).toMatchObject({ status: 'paid' });
    expect(await salesOf(id)).toBe(1);
    expect(await recordSale({ kind: 'check', purchaseId: 'no-such-purchase' }, context)).toMatchObject({
      status: 'skipped',
    });
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
    await createPurchase(env.database.db, {
      id,
      videoId: video.id,
      checkoutSessionId: `offline_${id}`,
      buyerName: 'Tama',
      buyerEmail: 'tama@example.nz',
      amountCents: 3500,
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
