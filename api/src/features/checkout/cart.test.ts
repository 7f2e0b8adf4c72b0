import { eq } from 'drizzle-orm';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { purchaseItems, purchases } from '@app/shared/db';
import { hashPassword } from '@app/shared/password';
import { CART_MAX_ITEMS } from '@app/shared/schemas';
import { createShowcase, createVideo } from '../../../../test/support/factories.ts';
import { useTestWorld } from '../../../../test/support/world.ts';

// The cart's checkout (docs/decisions/023): the database prices every item, and every bad input is
// answered 400/403/409 with a message naming the item, with nothing charged and nothing written.

const { env, api, stripe } = useTestWorld({ api: true, stripe: true });

const buyer = { customerName: 'Aroha Smith', customerEmail: 'aroha@example.nz' };
// Each request comes from its own address, so the checkout limit (30 an hour) does not get in the way.
let address = 0;
const from = () => `198.51.100.${++address % 250}`;

function checkout(items: unknown, extra: object = {}) {
  return request(api.app)
    .post('/api/cart/checkout')
    .set('X-Forwarded-For', from())
    .send({ ...buyer, items, ...extra });
}

/** Sends a cart that must be refused, and checks nothing was charged or written. */
async function refused(items: unknown, status: number, extra: object = {}) {
  const [purchasesBefore, itemsBefore, sessionsBefore] = [
    await env.database.db.$count(purchases),
    await env.database.db.$count(purchaseItems),
    stripe.created.length,
  ];
  const response = await checkout(items, extra).expect(status);
  expect(await env.database.db.$count(purchases)).toBe(purchasesBefore);
  expect(await env.database.db.$count(purchaseItems)).toBe(itemsBefore);
  expect(stripe.created.length).toBe(sessionsBefore);
  const body = response.body as {
    message: string;
    code: string;
    details?: { problems: Array<Record<string, unknown>> };
  };
  // Every refusal is one error answer: a message, the cart_refused code, the lines' problems.
  if (body.code !== 'cart_refused') return { ...body, problems: undefined };
  return { ...body, problems: body.details!.problems };
}

async function tokenFor(videoId: string, password: string) {
  const { body } = await request(api.app)
    .post('/api/verify-video-password')
    .set('X-Forwarded-For', from())
    .send({ videoId, password })
    .expect(200);
  return body.token as string;
}

describe('cart checkout', () => {
  it('charges every video and a bundle in one Checkout Session, at the database prices', async () => {
    const solos = await Promise.all(
      [1500, 2500].map((priceCents, index) =>
        createVideo(env.database.db, { priceCents, title: `Cart Solo ${index + 1}` }),
      ),
    );
    const locked = await createVideo(env.database.db, {
      priceCents: 1000,
      title: 'Cart Locked',
      passwordProtected: true,
      passwordHash: await hashPassword('encore'),
    });
    const showcase = await createShowcase(env.database.db, { name: 'Cart Juniors', bundlePriceCents: 3000 });
    await Promise.all(
      [2000, 2000].map((priceCents) => createVideo(env.database.db, { priceCents, showcaseId: showcase.id })),
    );
    const items = [
      { videoId: solos[0]!.id, expectedPriceCents: 1500 },
      { videoId: solos[1]!.id },
      { videoId: locked.id, verificationToken: await tokenFor(locked.id, 'encore') },
      { showcaseId: showcase.id, expectedPriceCents: 3000 },
    ];
    const answer = await checkout(items).expect(201);
    expect(answer.body).toEqual({ url: expect.stringMatching(/^https:/), sessionId: expect.any(String) });

    const form = stripe.created.at(-1)!;
    expect(form).toMatchObject({
      mode: 'payment',
      allow_promotion_codes: 'true',
      'line_items[0][price_data][unit_amount]': '1500',
      'line_items[0][price_data][currency]': 'nzd',
      'line_items[1][price_data][unit_amount]': '2500',
      'line_items[2][price_data][unit_amount]': '1000',
      'line_items[3][price_data][unit_amount]': '3000',
      'line_items[3][price_data][product_data][name]': 'All 2 videos of Cart Juniors',
      cancel_url: 'http://localhost:3000/cart',
    });
    expect(form['line_items[4][quantity]']).toBeUndefined();
    expect(stripe.sessions.get(answer.body.sessionId)!.amount_total).toBe(8000);

    const [purchase] = await env.database.db
      .select()
      .from(purchases)
      .where(eq(purchases.checkoutSessionId, answer.body.sessionId));
    expect(purchase).toMatchObject({ status: 'pending', amountCents: 8000 });
    const written = await env.database.db
      .select()
      .from(purchaseItems)
      .where(eq(purchaseItems.purchaseId, purchase!.id));
    expect(written.map((item) => [item.videoId, item.bundleShowcaseId, item.listPriceCents])).toEqual(
      expect.arrayContaining([
        [solos[0]!.id, null, 1500],
        [solos[1]!.id, null, 2500],
        [locked.id, null, 1000],
        [null, showcase.id, 3000],
      ]),
    );
  });

  it('refuses an empty cart, more than 50 items, and a price the request states', async () => {
    const video = await createVideo(env.database.db, { priceCents: 1200 });
    expect((await refused([], 400)).message).toContain('Your cart is empty');
    const many = Array.from({ length: CART_MAX_ITEMS + 1 }, (_, index) => ({ videoId: `v${index}` }));
    expect((await refused(many, 400)).message).toContain('at most 50');
    // The request may not state a price; only the database prices.
    const priced = await refused([{ videoId: video.id, priceCents: 1 }], 400);
    expect(priced.message).toMatch(/items\.0/);
    await refused({ videoId: video.id }, 400);
    await refused([{ videoId: video.id }], 400, { customerEmail: 'nope' });
  });

  it('names an unknown, repeated, hidden or free video, and a bundle without a price', async () => {
    const video = await createVideo(env.database.db, { priceCents: 1200, title: 'Twice Solo' });
    const hidden = await createVideo(env.database.db, {
      priceCents: 1200,
      title: 'Hidden Solo',
      published: false,
    });
    const free = await createVideo(env.database.db, { priceCents: 0, title: 'Free Solo' });
    const plain = await createShowcase(env.database.db, { name: 'Plain Showcase' });
    await createVideo(env.database.db, { priceCents: 1000, showcaseId: plain.id });

    const unknown = await refused([{ videoId: video.id }, { videoId: 'no-such-video' }], 400);
    expect(unknown.message).toContain('no-such-video');
    expect(unknown.problems).toEqual([
      expect.objectContaining({ index: 1, videoId: 'no-such-video', reason: 'unknown' }),
    ]);
    const repeated = await refused([{ videoId: video.id }, { videoId: video.id }], 400);
    expect(repeated.problems).toEqual([expect.objectContaining({ index: 1, reason: 'repeated' })]);
    expect(repeated.message).toContain('Item 2');
    // A hidden video is not named (its title is private now), neither by the checkout nor the check.
    const gone = await refused([{ videoId: hidden.id }], 400);
    expect(gone.message).toContain('Item 1 is no longer available');
    expect(JSON.stringify(gone)).not.toContain('Hidden Solo');
    const checked = await request(api.app)
      .post('/api/cart/check')
      .send({ items: [{ videoId: hidden.id }] })
      .expect(200);
    expect(checked.body.problems).toEqual([expect.objectContaining({ index: 0, reason: 'hidden' })]);
    expect(JSON.stringify(checked.body)).not.toContain('Hidden Solo');
    expect((await refused([{ videoId: free.id }], 400)).message).toContain('“Free Solo” is free');
    const noBundle = await refused([{ showcaseId: plain.id }], 400);
    expect(noBundle.problems).toEqual([
      expect.objectContaining({ showcaseId: plain.id, reason: 'no-bundle' }),
    ]);
    await refused([{ showcaseId: 'no-such-showcase' }], 400);
  });

  it('needs a valid password token for a protected video (403)', async () => {
    const locked = await createVideo(env.database.db, {
      priceCents: 900,
      title: 'Locked Duo',
      passwordProtected: true,
      passwordHash: await hashPassword('encore'),
    });
    const other = await createVideo(env.database.db, {
      priceCents: 900,
      passwordProtected: true,
      passwordHash: await hashPassword('other'),
    });
    const none = await refused([{ videoId: locked.id }], 403);
    expect(none.message).toContain('“Locked Duo” is password protected');
    await refused([{ videoId: locked.id, verificationToken: 'forged.token' }], 403);
    // A token for another video opens only that one.
    await refused([{ videoId: locked.id, verificationToken: await tokenFor(other.id, 'other') }], 403);
    await checkout([{ videoId: locked.id, verificationToken: await tokenFor(locked.id, 'encore') }]).expect(
      201,
    );
  });

  it('charges nothing when a price changed since the buyer added it, or a bundle already holds a video (409)', async () => {
    const video = await createVideo(env.database.db, { priceCents: 1800, title: 'Repriced Solo' });
    const repriced = await refused([{ videoId: video.id, expectedPriceCents: 1 }], 409);
    expect(repriced.message).toContain('“Repriced Solo” now costs NZ$18.00');
    expect(repriced.problems).toEqual([expect.objectContaining({ reason: 'repriced', priceCents: 1800 })]);

    const showcase = await createShowcase(env.database.db, {
      name: 'Overlap Seniors',
      bundlePriceCents: 2500,
    });
    const inside = await createVideo(env.database.db, { priceCents: 1500, showcaseId: showcase.id });
    await createVideo(env.database.db, { priceCents: 1500, showcaseId: showcase.id });
    const overlap = await refused([{ showcaseId: showcase.id }, { videoId: inside.id }], 409);
    expect(overlap.message).toContain('already in the bundle of Overlap Seniors');
    const bundleRepriced = await refused([{ showcaseId: showcase.id, expectedPriceCents: 2000 }], 409);
    expect(bundleRepriced.problems).toEqual([expect.objectContaining({ priceCents: 2500 })]);
    // Confirmed at the new price: charged.
    await checkout([{ videoId: video.id, expectedPriceCents: 1800 }]).expect(201);
  });

  it('prices a cart for the cart page without writing anything, and offers a showcase bundle with its saving', async () => {
    const showcase = await createShowcase(env.database.db, { name: 'Offer Minis', bundlePriceCents: 4000 });
    const inside = await Promise.all(
      [1500, 1500, 2000].map((priceCents) =>
        createVideo(env.database.db, { priceCents, showcaseId: showcase.id }),
      ),
    );
    const offer = await request(api.app).get(`/api/showcases/${showcase.id}/bundle`).expect(200);
    expect(offer.body).toMatchObject({
      showcaseId: showcase.id,
      name: 'Offer Minis',
      videoCount: 3,
      priceCents: 4000,
      separateCents: 5000,
      savingCents: 1000,
    });
    expect([...offer.body.videoIds].sort()).toEqual(inside.map((video) => video.id).sort());
    const plain = await createShowcase(env.database.db);
    // No bundle price: no offer, and no error for the page that asks.
    expect((await request(api.app).get(`/api/showcases/${plain.id}/bundle`).expect(200)).body).toBeNull();

    const before = await env.database.db.$count(purchases);
    const check = await request(api.app)
      .post('/api/cart/check')
      .send({ items: [{ showcaseId: showcase.id }, { videoId: 'gone', expectedPriceCents: 100 }] })
      .expect(200);
    expect(check.body).toMatchObject({
      totalCents: 4000,
      items: [{ showcaseId: showcase.id, title: 'All 3 videos of Offer Minis', videoCount: 3 }],
      problems: [{ index: 1, reason: 'unknown' }],
    });
    expect(await env.database.db.$count(purchases)).toBe(before);
  });
});
