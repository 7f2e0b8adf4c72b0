import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { hashSecret, newSecret, paidVideosForEmail } from '@app/shared/buyer-library';
import { buyerSessions, buyerSignInLinks, purchases } from '@app/shared/db';
import { BUYER_LINK_SENT, buyerLibrarySchema } from '@app/shared/schemas';
import { adminAgent, postStripeWebhook } from '../../../../test/support/app.ts';
import { createPurchase, createShowcase, createVideo } from '../../../../test/support/factories.ts';
import { drain } from '../../../../test/support/worker.ts';
import { LINK_EXPIRED, LINK_INVALID, LINK_USED } from './buyer-library.service.ts';
import { BUYER_COOKIE } from './buyer-library.service.ts';
import { useTestWorld } from '../../../../test/support/world.ts';

const { env, api, worker, smtp, stripe } = useTestWorld({
  api: true,
  worker: true,
  smtp: true,
  stripe: true,
});

const db = () => env.database.db;
const address = () => `parent-${randomUUID().slice(0, 8)}@example.nz`;
/** Each test is its own visitor, so the per-address limits of one do not touch another. */
const visitor = () => `198.51.100.${Math.floor(Math.random() * 250) + 1}`;

async function buy(
  email: string,
  options: { paidAt?: Date; status?: 'paid' | 'refunded'; title?: string } = {},
) {
  const showcase = await createShowcase(db(), { name: `Showcase ${randomUUID().slice(0, 6)}` });
  const video = await createVideo(db(), {
    priceCents: 1500,
    showcaseId: showcase.id,
    ...(options.title && { title: options.title }),
  });
  const purchase = await createPurchase(db(), {
    videoId: video.id,
    buyerEmail: email,
    status: options.status ?? 'paid',
    paidAt: options.paidAt ?? new Date(),
  });
  return { video, purchase, showcase };
}

/** A link as the worker would have sent it. */
async function issueLink(email: string, overrides: Partial<typeof buyerSignInLinks.$inferInsert> = {}) {
  const token = newSecret();
  await db()
    .insert(buyerSignInLinks)
    .values({
      email,
      tokenHash: hashSecret(token),
      sentAt: new Date(),
      expiresAt: new Date(Date.now() + 30 * 60_000),
      ...overrides,
    });
  return token;
}

async function signedIn(email: string) {
  const agent = request.agent(api.app);
  await agent
    .post('/api/my-videos/sign-in')
    .set('X-Forwarded-For', visitor())
    .send({ email, token: await issueLink(email) })
    .expect(200);
  return agent;
}

describe('paidVideosForEmail', () => {
  it('lists what an address paid for and kept, newest first, each video once, whatever the case and spaces', async () => {
    const email = address();
    const older = await buy(email, { paidAt: new Date('2026-03-01T00:00:00Z') });
    const newer = await buy(` ${email.toUpperCase()}  `, { paidAt: new Date('2026-05-01T00:00:00Z') });
    const refunded = await buy(email, { status: 'refunded' });
    await createPurchase(db(), {
      videoId: refunded.video.id,
      buyerEmail: 'someone-else@example.nz',
      status: 'paid',
    });
    // The older video bought again later: listed once, at its latest purchase.
    const again = await createPurchase(db(), {
      videoId: older.video.id,
      buyerEmail: email,
      status: 'paid',
      paidAt: new Date('2026-06-01T00:00:00Z'),
    });
    await createPurchase(db(), { videoId: newer.video.id, buyerEmail: email, status: 'pending' });

    const paid = await paidVideosForEmail(db(), `  ${email.toUpperCase()}`);
    expect(paid).toEqual([
      {
        videoId: older.video.id,
        purchaseId: again.id,
        purchasedAt: new Date('2026-06-01T00:00:00Z'),
        accessSessionId: again.checkoutSessionId,
      },
      {
        videoId: newer.video.id,
        purchaseId: newer.purchase.id,
        purchasedAt: new Date('2026-05-01T00:00:00Z'),
        accessSessionId: newer.purchase.checkoutSessionId,
      },
    ]);
    expect(await paidVideosForEmail(db(), address())).toEqual([]);
  });
});

describe('asking for a sign-in link', () => {
  it('answers the same whether or not the address has purchases, and only a buyer gets an e-mail', async () => {
    const buyer = address();
    const refundedBuyer = address();
    const stranger = address();
    await buy(buyer);
    await buy(refundedBuyer, { status: 'refunded' });
    const ip = visitor();
    const answers = [];
    for (const email of [buyer, refundedBuyer, stranger]) {
      const response = await request(api.app)
        .post('/api/my-videos/link')
        .set('X-Forwarded-For', ip)
        .send({ email: ` ${email.toUpperCase()} ` });
      answers.push({ status: response.status, body: response.body, type: response.type });
    }
    expect(answers).toEqual(
      Array.from({ length: 3 }, () => ({
        status: 202,
        body: { message: BUYER_LINK_SENT },
        type: 'application/json',
      })),
    );
    // Every request was recorded and queued alike; the worker made the difference.
    await drain(worker.producer, 'buyer-sign-in');
    const mail = await smtp.waitFor((message) => JSON.stringify(message.to).includes(buyer));
    expect(mail.text).toContain('/my-videos/sign-in#');
    await new Promise((resolve) => setTimeout(resolve, 300));
    const to = smtp.messages.map((message) => JSON.stringify(message.to));
    expect(to.filter((line) => line.includes(refundedBuyer) || line.includes(stranger))).toEqual([]);
    const rows = await db().select().from(buyerSignInLinks);
    expect(rows.map((row) => row.email)).toContain(buyer);
    expect(rows.map((row) => row.email)).not.toContain(stranger);
  });

  it('refuses a missing or malformed address with a 400, writing nothing', async () => {
    const before = await db().$count(buyerSignInLinks);
    for (const body of [
      {},
      { email: '' },
      { email: 'not-an-address' },
      { email: 42 },
      { email: `${'a'.repeat(320)}@x.nz` },
    ]) {
      const response = await request(api.app)
        .post('/api/my-videos/link')
        .set('X-Forwarded-For', visitor())
        .send(body)
        .expect(400);
      expect(response.body.message).toMatch(/email/i);
    }
    expect(await db().$count(buyerSignInLinks)).toBe(before);
  });

  it('limits requests per address (any case) and per visitor', async () => {
    const email = address();
    const ask = (ip: string, asked = email) =>
      request(api.app).post('/api/my-videos/link').set('X-Forwarded-For', ip).send({ email: asked });
    for (let attempt = 0; attempt < 5; attempt++) {
      await ask(`203.0.113.${attempt + 1}`, attempt % 2 ? email.toUpperCase() : email).expect(202);
    }
    const limited = await ask('203.0.113.50').expect(429);
    expect(limited.body.message).toMatch(/^Too many sign-in link requests for this address/);
    // Another address from another visitor is not held up by that one.
    await ask('203.0.113.51', address()).expect(202);

    // The headers say nothing about the address asked for: a repeated one looks like a fresh one.
    const repeated = address();
    await ask('203.0.113.60', repeated).expect(202);
    const again = await ask('203.0.113.61', repeated).expect(202);
    const fresh = await ask('203.0.113.62', address()).expect(202);
    expect(again.headers.ratelimit).toBeDefined();
    expect(again.headers.ratelimit).toBe(fresh.headers.ratelimit);
    // Only the per-visitor policy is named; nothing of the per-address one.
    expect(again.headers['ratelimit-policy']).toMatch(/^"20-in-1hr"/);
    expect(JSON.stringify(again.headers)).not.toContain('5-in-1hr');

    const crowded = '203.0.113.99';
    for (let attempt = 0; attempt < 20; attempt++) await ask(crowded, address()).expect(202);
    const refused = await ask(crowded, address()).expect(429);
    expect(refused.body.message).toMatch(
      /^Too many sign-in link requests\. Please try again in \d+ minutes?\./,
    );
  });
});

describe('signing in with a link', () => {
  it('opens a 30-day httpOnly buyer session for the address, once', async () => {
    const email = address();
    const { video, showcase } = await buy(email, { title: 'Junior Jazz Trio' });
    const token = await issueLink(email);
    const agent = request.agent(api.app);
    const response = await agent
      .post('/api/my-videos/sign-in')
      .set('X-Forwarded-For', visitor())
      .send({ email: email.toUpperCase(), token })
      .expect(200);
    expect(response.body).toEqual({ email });
    const cookie = response.headers['set-cookie']?.[0] ?? '';
    expect(cookie).toMatch(new RegExp(`^${BUYER_COOKIE}=[\\w-]{43};`));
    expect(cookie).toContain('Max-Age=2592000');
    expect(cookie).toContain('Path=/api/my-videos');
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Strict');
    // The session is kept by its hash only.
    const secret = /=([\w-]+);/.exec(cookie)![1]!;
    const [session] = await db().select().from(buyerSessions).where(eq(buyerSessions.email, email));
    expect(session!.idHash).toBe(hashSecret(secret));

    const library = buyerLibrarySchema.parse((await agent.get('/api/my-videos').expect(200)).body);
    expect(library.email).toBe(email);
    expect(library.videos).toMatchObject([
      { id: video.id, title: 'Junior Jazz Trio', showcaseName: showcase.name, passwordProtected: false },
    ]);

    const again = await request(api.app)
      .post('/api/my-videos/sign-in')
      .set('X-Forwarded-For', visitor())
      .send({ email, token })
      .expect(400);
    expect(again.body).toEqual({ message: LINK_USED, code: 'invalid_input' });
    expect(again.headers['set-cookie']).toBeUndefined();
  });

  it('says which way a link is bad: expired, tampered, for another address, or unknown', async () => {
    const email = address();
    await buy(email);
    const expired = await issueLink(email, { expiresAt: new Date(Date.now() - 1_000) });
    const good = await issueLink(email);
    const other = address();
    await buy(other);
    const othersToken = await issueLink(other);
    const cases = [
      { body: { email, token: expired }, message: LINK_EXPIRED },
      {
        body: { email, token: `${good.slice(0, -1)}${good.endsWith('A') ? 'B' : 'A'}` },
        message: LINK_INVALID,
      },
      { body: { email, token: othersToken }, message: LINK_INVALID },
      { body: { email: other, token: good }, message: LINK_INVALID },
      { body: { email, token: newSecret() }, message: LINK_INVALID },
    ];
    for (const { body, message } of cases) {
      const response = await request(api.app)
        .post('/api/my-videos/sign-in')
        .set('X-Forwarded-For', visitor())
        .send(body)
        .expect(400);
      expect(response.body).toEqual({ message, code: 'invalid_input' });
      expect(response.headers['set-cookie']).toBeUndefined();
    }
    for (const body of [
      { email },
      { token: good },
      { email: 'nope', token: good },
      { email, token: 'x'.repeat(201) },
    ]) {
      await request(api.app)
        .post('/api/my-videos/sign-in')
        .set('X-Forwarded-For', visitor())
        .send(body)
        .expect(400);
    }
    // None of those spent the good link or the other address's.
    await request(api.app)
      .post('/api/my-videos/sign-in')
      .set('X-Forwarded-For', visitor())
      .send({ email, token: good })
      .expect(200);
    await request(api.app)
      .post('/api/my-videos/sign-in')
      .set('X-Forwarded-For', visitor())
      .send({ email: other, token: othersToken })
      .expect(200);
  });

  it('ends the session on sign-out (the old cookie opens nothing) and after 30 days', async () => {
    const email = address();
    await buy(email);
    const agent = await signedIn(email);
    const [session] = await db().select().from(buyerSessions).where(eq(buyerSessions.email, email));
    // A stolen copy of the cookie, made before sign-out.
    const jar = agent.jar.getCookie(BUYER_COOKIE, {
      domain: '127.0.0.1',
      path: '/api/my-videos',
      secure: false,
      script: false,
    });
    expect(jar?.value).toBeTruthy();
    const out = await agent.post('/api/my-videos/logout').expect(204);
    expect(out.headers['set-cookie']?.[0]).toMatch(
      new RegExp(`^${BUYER_COOKIE}=;.*Expires=Thu, 01 Jan 1970`),
    );
    await request(api.app).get('/api/my-videos').set('Cookie', `${BUYER_COOKIE}=${jar!.value}`).expect(401);
    expect(await db().$count(buyerSessions, eq(buyerSessions.idHash, session!.idHash))).toBe(0);

    const later = await signedIn(email);
    await later.get('/api/my-videos').expect(200);
    await db()
      .update(buyerSessions)
      .set({ expiresAt: new Date(Date.now() - 1_000) })
      .where(eq(buyerSessions.email, email));
    await later.get('/api/my-videos').expect(401);
  });

  it("a link for another address, opened in a signed-in browser, ends the first buyer's session", async () => {
    const first = address();
    const second = address();
    await buy(first);
    const { video } = await buy(second);
    const agent = await signedIn(first);
    await agent
      .post('/api/my-videos/sign-in')
      .set('X-Forwarded-For', visitor())
      .send({ email: second, token: await issueLink(second) })
      .expect(200);
    const library = buyerLibrarySchema.parse((await agent.get('/api/my-videos').expect(200)).body);
    expect(library).toMatchObject({ email: second, videos: [{ id: video.id }] });
    expect(await db().$count(buyerSessions, eq(buyerSessions.email, first))).toBe(0);
  });

  it('refuses a sign-out posted from another site', async () => {
    const email = address();
    await buy(email);
    const agent = await signedIn(email);
    await agent.post('/api/my-videos/logout').set('Origin', 'https://evil.example').expect(403);
    await agent.get('/api/my-videos').expect(200);
  });
});

describe('access matrix', () => {
  it('a buyer session opens only its own videos; admin and buyer sessions are not each other; a visitor gets nothing', async () => {
    const aroha = address();
    const mere = address();
    const first = await buy(aroha, { paidAt: new Date('2026-02-01T00:00:00Z') });
    const second = await buy(aroha, { paidAt: new Date('2026-04-01T00:00:00Z') });
    const refunded = await buy(aroha, { status: 'refunded' });
    const meres = await buy(mere);

    const arohaAgent = await signedIn(aroha);
    const library = buyerLibrarySchema.parse((await arohaAgent.get('/api/my-videos').expect(200)).body);
    expect(library.videos.map((video) => video.id)).toEqual([second.video.id, first.video.id]);
    expect(library.videos[0]!.watchUrl).toBe(
      `/video/${second.video.id}/download?session_id=${second.purchase.checkoutSessionId}`,
    );
    expect(JSON.stringify(library)).not.toContain(meres.video.id);
    expect(JSON.stringify(library)).not.toContain(refunded.video.id);

    // Its links open its videos through the existing signed links, and not Mere's.
    const ownSession = new URL(library.videos[0]!.watchUrl, 'http://x').searchParams.get('session_id');
    const link = await request(api.app)
      .post(`/api/download/${second.video.id}`)
      .set('X-Forwarded-For', visitor())
      .send({ sessionId: ownSession })
      .expect(200);
    expect(link.body.downloadUrl).toBeTruthy();
    for (const sessionId of library.videos.map((video) =>
      new URL(video.watchUrl, 'http://x').searchParams.get('session_id'),
    )) {
      await request(api.app)
        .post(`/api/download/${meres.video.id}`)
        .set('X-Forwarded-For', visitor())
        .send({ sessionId })
        .expect(403);
    }
    const meresLibrary = buyerLibrarySchema.parse(
      (await (await signedIn(mere)).get('/api/my-videos').expect(200)).body,
    );
    expect(meresLibrary.videos.map((video) => video.id)).toEqual([meres.video.id]);

    // A full refund later: gone from the library at once.
    await db().update(purchases).set({ status: 'refunded' }).where(eq(purchases.id, second.purchase.id));
    const after = buyerLibrarySchema.parse((await arohaAgent.get('/api/my-videos').expect(200)).body);
    expect(after.videos.map((video) => video.id)).toEqual([first.video.id]);

    // A visitor, and the owner's admin session, are not buyers.
    expect((await request(api.app).get('/api/my-videos').expect(401)).body).toEqual({
      message: 'Sign in to see your videos',
      code: 'unauthorized',
    });
    await request(api.app).get('/api/my-videos').set('Cookie', `${BUYER_COOKIE}=${newSecret()}`).expect(401);
    const admin = await adminAgent(api.app);
    await admin.get('/api/admin/purchases').expect(200);
    await admin.get('/api/my-videos').expect(401);
    // A buyer session is not an admin session.
    await arohaAgent.get('/api/admin/purchases').expect(401);
    await arohaAgent.get('/api/admin/session').expect(200, { authenticated: false });
  });
});

describe('carts, bundles and offline payments in the library', () => {
  /** A Stripe webhook delivery, as the shop receives it. */
  const deliver = (type: string, object: object) =>
    postStripeWebhook(api.app, stripe.signedEvent(type, object)).expect(200);
  const settled = async () => {
    await drain(worker.producer, 'record-sale');
    await drain(worker.producer, 'purchase-receipt');
  };
  const libraryOf = async (agent: ReturnType<typeof request.agent>) =>
    buyerLibrarySchema.parse((await agent.get('/api/my-videos').expect(200)).body);

  it('lists every video of a paid cart once (a bundle as its videos), and a full refund takes them all away', async () => {
    const email = address();
    const showcase = await createShowcase(db(), { name: 'Library Bundle Juniors', bundlePriceCents: 3000 });
    const bundled = await Promise.all(
      ['Bundle Tap', 'Bundle Jazz'].map((title) =>
        createVideo(db(), { title, priceCents: 2000, showcaseId: showcase.id }),
      ),
    );
    const single = await createVideo(db(), { title: 'Cart Single Lyrical', priceCents: 1500 });
    // Bought before, then again inside the bundle: one entry, at the newer purchase.
    const before = await createPurchase(db(), {
      videoId: bundled[0]!.id,
      buyerEmail: email,
      status: 'paid',
      paidAt: new Date('2026-01-01T00:00:00Z'),
    });
    const { body } = await request(api.app)
      .post('/api/cart/checkout')
      .set('X-Forwarded-For', visitor())
      .send({
        customerName: 'Aroha Smith',
        customerEmail: email,
        items: [{ videoId: single.id }, { showcaseId: showcase.id }],
      })
      .expect(201);
    const { sessionId } = body as { sessionId: string };
    // Unpaid, the cart is not in the library.
    expect((await paidVideosForEmail(db(), email)).map((paid) => paid.videoId)).toEqual([bundled[0]!.id]);

    await deliver('checkout.session.completed', stripe.pay(sessionId));
    await settled();
    const agent = await signedIn(email);
    const library = await libraryOf(agent);
    expect(library.videos.map((video) => video.id).sort()).toEqual(
      [...bundled, single].map((video) => video.id).sort(),
    );
    for (const video of library.videos) {
      expect(video.watchUrl).toBe(`/video/${video.id}/download?session_id=${sessionId}`);
      await request(api.app)
        .post(`/api/download/${video.id}`)
        .set('X-Forwarded-For', visitor())
        .send({ sessionId })
        .expect(200);
    }

    // A partial refund keeps access; a full one removes the cart, and the older purchase comes back.
    await deliver('charge.refunded', stripe.refund(sessionId, 500));
    await settled();
    expect((await libraryOf(agent)).videos).toHaveLength(3);
    await deliver('charge.refunded', stripe.refund(sessionId));
    await settled();
    expect((await libraryOf(agent)).videos).toMatchObject([
      {
        id: bundled[0]!.id,
        watchUrl: `/video/${bundled[0]!.id}/download?session_id=${before.checkoutSessionId}`,
      },
    ]);
    expect(stripe.unexpected).toEqual([]);
  });

  it('lists an offline payment for a bundle and a video, with links that open them', async () => {
    const email = address();
    const showcase = await createShowcase(db(), { name: 'Library Offline Seniors', bundlePriceCents: 2500 });
    const bundled = await Promise.all(
      [1500, 1500].map((priceCents) => createVideo(db(), { priceCents, showcaseId: showcase.id })),
    );
    const single = await createVideo(db(), { priceCents: 1200 });
    const admin = await adminAgent(api.app);
    const { body } = await admin
      .post('/api/admin/purchases/offline')
      .set('Origin', 'http://localhost:3000')
      .send({
        videoIds: [single.id],
        showcaseIds: [showcase.id],
        buyerName: 'Hemi Walker',
        buyerEmail: email.toUpperCase(),
        amountCents: 3000,
      })
      .expect(202);
    const offlineSession = `offline_${(body as { id: string }).id}`;
    await settled();

    const library = await libraryOf(await signedIn(email));
    expect(library.videos.map((video) => video.id).sort()).toEqual(
      [...bundled, single].map((video) => video.id).sort(),
    );
    for (const video of library.videos) {
      expect(video.watchUrl).toBe(`/video/${video.id}/download?session_id=${offlineSession}`);
      await request(api.app)
        .post(`/api/video-stream/${video.id}`)
        .set('X-Forwarded-For', visitor())
        .send({ sessionId: offlineSession })
        .expect(200);
    }
  });
});
