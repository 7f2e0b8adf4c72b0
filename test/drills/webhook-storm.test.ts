// Drill 4: 200 signed Stripe events, with duplicates and in the wrong order, delivered at once.
// Every purchase (carts of three videos, and a video with a showcase bundle) ends in the state Stripe
// says it is in, with at most one sale per payment and every item of a paid cart granted once.
import { inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { purchases, sales, type PurchaseStatus, purchaseItems } from '@app/shared/db';
import { postStripeWebhook } from '../support/app.ts';
import { openCheckoutSession } from '../support/fake-stripe.ts';
import { createVideo, createPurchase, createShowcase } from '../support/factories.ts';
import { drain } from '../support/worker.ts';
import { useTestWorld } from '../support/world.ts';

const { env, api, stripe, worker } = useTestWorld({ api: true, worker: true, stripe: true });

function shuffle<T>(items: T[]): T[] {
  for (let index = items.length - 1; index > 0; index--) {
    const other = Math.floor(Math.random() * (index + 1));
    [items[index], items[other]] = [items[other]!, items[index]!];
  }
  return items;
}

describe('a storm of webhook deliveries', () => {
  it('leaves every purchase as Stripe has it, with one sale per payment', { timeout: 120_000 }, async () => {
    const cart = await Promise.all(
      [1000, 1200, 800].map((priceCents) => createVideo(env.database.db, { priceCents })),
    );
    const showcase = await createShowcase(env.database.db, { bundlePriceCents: 1500 });
    const inBundle = await Promise.all(
      [1000, 1000].map((priceCents) => createVideo(env.database.db, { priceCents, showcaseId: showcase.id })),
    );
    const outcomes: PurchaseStatus[] = ['paid', 'refunded', 'expired', 'failed'];
    const planned: Array<{ sessionId: string; expected: PurchaseStatus }> = [];
    const ids: string[] = [];
    for (let index = 0; index < 40; index++) {
      const withBundle = index % 2 === 1;
      const purchase = await createPurchase(env.database.db, {
        checkoutSessionId: null,
        videoIds: withBundle ? [cart[0]!.id] : cart.map((video) => video.id),
        bundleShowcaseIds: withBundle ? [showcase.id] : [],
        buyerName: `Buyer ${index}`,
        buyerEmail: `buyer${index}@example.nz`,
        amountCents: withBundle ? 2500 : 3000,
      });
      const sessionId = await openCheckoutSession(env, purchase, {
        productName: 'Cart',
        customerEmail: `buyer${index}@example.nz`,
      });
      ids.push(purchase.id);
      planned.push({ sessionId, expected: outcomes[index % outcomes.length]! });
    }

    const deliveries: Array<{ body: string; signature: string }> = [];
    for (const { sessionId, expected } of planned) {
      if (expected === 'paid' || expected === 'refunded') {
        const session = stripe.pay(sessionId);
        const completed = stripe.signedEvent('checkout.session.completed', session);
        deliveries.push(
          completed,
          completed,
          stripe.signedEvent('checkout.session.async_payment_succeeded', session),
        );
        // Out of order: an async failure arriving after the payment succeeded changes nothing.
        if (expected === 'paid') {
          const lateFailure = stripe.signedEvent('checkout.session.async_payment_failed', session);
          deliveries.push(lateFailure, lateFailure);
        }
        if (expected === 'refunded') {
          const refund = stripe.signedEvent('charge.refunded', stripe.refund(sessionId));
          deliveries.push(refund, refund);
        }
      } else if (expected === 'expired') {
        const session = stripe.expire(sessionId);
        const expired = stripe.signedEvent('checkout.session.expired', session);
        deliveries.push(
          expired,
          expired,
          expired,
          stripe.signedEvent('checkout.session.expired', session),
          expired,
        );
      } else {
        const session = stripe.completeUnpaid(sessionId);
        const failed = stripe.signedEvent('checkout.session.async_payment_failed', session);
        deliveries.push(
          stripe.signedEvent('checkout.session.completed', session),
          failed,
          failed,
          failed,
          failed,
        );
      }
    }
    expect(deliveries.length).toBe(200);

    const answers = await Promise.all(
      shuffle(deliveries).map((delivery) =>
        postStripeWebhook(api.app, delivery).then((response) => response.status),
      ),
    );
    expect(answers.filter((status) => status !== 200)).toEqual([]);

    await expect
      .poll(
        async () => {
          const rows = await env.database.db.select().from(purchases).where(inArray(purchases.id, ids));
          return planned.filter(
            (plan) => rows.find((row) => row.checkoutSessionId === plan.sessionId)?.status !== plan.expected,
          ).length;
        },
        { timeout: 90_000, interval: 500 },
      )
      .toBe(0);
    await drain(worker.producer, 'record-sale', 30_000);

    const rows = await env.database.db.select().from(purchases).where(inArray(purchases.id, ids));
    const recorded = await env.database.db
      .select()
      .from(sales)
      .where(
        inArray(
          sales.purchaseId,
          rows.map((row) => row.id),
        ),
      );
    const perPurchase = new Map<string, number>();
    for (const sale of recorded)
      perPurchase.set(sale.purchaseId!, (perPurchase.get(sale.purchaseId!) ?? 0) + 1);
    expect([...perPurchase.values()].every((count) => count === 1)).toBe(true);
    for (const row of rows.filter((purchase) => purchase.status === 'paid'))
      expect(perPurchase.get(row.id)).toBe(1);
    for (const row of rows.filter(
      (purchase) => purchase.status === 'expired' || purchase.status === 'failed',
    )) {
      expect(perPurchase.has(row.id)).toBe(false);
    }
    // A paid cart holds each of its videos once; a bundle became its two videos beside the single one.
    const items = await env.database.db
      .select()
      .from(purchaseItems)
      .where(inArray(purchaseItems.purchaseId, ids));
    // (A refund heard of before its payment ends the purchase refunded without granting anything.)
    for (const row of rows.filter((purchase) => purchase.status === 'paid')) {
      const held = items.filter((item) => item.purchaseId === row.id);
      const expected = row.amountCents === 2500 ? [cart[0]!, ...inBundle] : cart;
      expect(held.map((item) => item.videoId).sort()).toEqual(expected.map((video) => video.id).sort());
      expect(held.reduce((sum, item) => sum + item.amountCents, 0)).toBe(row.amountCents);
    }
  });
});
