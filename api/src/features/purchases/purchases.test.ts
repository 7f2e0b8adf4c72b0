import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { purchases, sales, type PurchaseStatus, purchaseItems } from '@app/shared/db';
import { createVideo, createPurchase, createShowcase } from '../../../../test/support/factories.ts';
import { drain } from '../../../../test/support/worker.ts';
import { useTestWorld } from '../../../../test/support/world.ts';

const { env, api, agent, worker, smtp } = useTestWorld({ admin: true, worker: true, smtp: true });
const origin = 'http://localhost:3000';

async function purchase(
  videoId: string,
  values: { status: PurchaseStatus; buyerName: string; amountCents: number; createdAt?: Date },
) {
  const id = randomUUID();
  await createPurchase(env.database.db, {
    id,
    videoId,
    checkoutSessionId: `cs_test_${id}`,
    buyerEmail: `${values.buyerName.toLowerCase().replace(/\W/g, '')}@example.nz`,
    ...values,
  });
  return id;
}

describe('admin purchases', () => {
  it('are closed to visitors', async () => {
    const anyone = request(api.app);
    await anyone.get('/api/admin/purchases').expect(401);
    await anyone.get('/api/admin/purchases.csv').expect(401);
    await anyone.post(`/api/admin/purchases/${randomUUID()}/resend`).set('Origin', origin).expect(401);
    const video = await createVideo(env.database.db);
    const offline = await anyone
      .post('/api/admin/purchases/offline')
      .set('Origin', origin)
      .send({ videoId: video.id, buyerName: 'X', buyerEmail: 'x@example.nz', amountCents: 100 });
    expect(offline.status).toBe(401);
    expect(await env.database.db.$count(purchaseItems, eq(purchaseItems.videoId, video.id))).toBe(0);
    // A cross-site write with the owner's cookie is refused too.
    const crossSite = await agent
      .post('/api/admin/purchases/offline')
      .set('Origin', 'https://evil.example')
      .send({ videoId: video.id, buyerName: 'X', buyerEmail: 'x@example.nz', amountCents: 100 });
    expect(crossSite.status).toBe(403);
  });

  it('records an offline payment as a sale, lists it with totals, exports CSV and resends the receipt', async () => {
    const video = await createVideo(env.database.db, { priceCents: 2000, title: '=HYPERLINK("x")' });
    const offline = await agent
      .post('/api/admin/purchases/offline')
      .set('Origin', origin)
      .send({ videoId: video.id, buyerName: 'Hemi', buyerEmail: 'hemi@example.nz', amountCents: 2000 })
      .expect(202);
    await drain(worker.producer, 'record-sale');
    await drain(worker.producer, 'purchase-receipt');
    expect(await env.database.db.$count(sales, eq(sales.transactionId, `offline_${offline.body.id}`))).toBe(
      1,
    );

    const list = await agent.get('/api/admin/purchases?status=paid&q=hemi').expect(200);
    expect(list.body.purchases).toEqual([
      expect.objectContaining({ buyerName: 'Hemi', status: 'paid', source: 'offline' }),
    ]);
    expect(list.body.totals).toMatchObject({ paidCount: 1, paidCents: 2000 });

    const csv = await agent.get('/api/admin/purchases.csv?q=hemi').expect(200);
    expect(csv.headers['content-type']).toMatch(/text\/csv/);
    expect(csv.text).toContain(`"'=HYPERLINK(""x"")"`);

    await agent.post(`/api/admin/purchases/${offline.body.id}/resend`).set('Origin', origin).expect(202);
    await agent.get('/api/admin/purchases?status=nope').expect(400);
    await request(api.app).get('/api/admin/purchases').expect(401);
  });

  it('records an offline payment as a paid purchase with one sale and a receipt', async () => {
    const video = await createVideo(env.database.db, { priceCents: 4500, title: 'Offline Solo' });
    const answer = await agent
      .post('/api/admin/purchases/offline')
      .set('Origin', origin)
      .send({ videoId: video.id, buyerName: 'Hemi Walker', buyerEmail: 'hemi@example.nz', amountCents: 4000 })
      .expect(202);
    expect(answer.body).toEqual({
      id: expect.any(String),
      jobId: `offline-${answer.body.id}`,
      queue: 'record-sale',
    });
    await drain(worker.producer, 'record-sale');
    await drain(worker.producer, 'purchase-receipt');

    const [row] = await env.database.db.select().from(purchases).where(eq(purchases.id, answer.body.id));
    expect(row).toMatchObject({
      status: 'paid',
      source: 'offline',
      amountCents: 4000,
      checkoutSessionId: `offline_${answer.body.id}`,
    });
    const recorded = await env.database.db.select().from(sales).where(eq(sales.purchaseId, answer.body.id));
    expect(recorded).toEqual([
      expect.objectContaining({ transactionId: `offline_${answer.body.id}`, amountCents: 4000 }),
    ]);
    const mail = await smtp.waitFor((message) => message.subject === 'Your video: Offline Solo');
    expect(mail.text).toContain(`/video/${video.id}/download?session_id=offline_${answer.body.id}`);
    // The receipt's link opens the video.
    await request(api.app)
      .post(`/api/download/${video.id}`)
      .send({ sessionId: `offline_${answer.body.id}` })
      .expect(200);

    await agent
      .post('/api/admin/purchases/offline')
      .set('Origin', origin)
      .send({ videoId: 'missing', buyerName: 'Hemi', buyerEmail: 'hemi@example.nz', amountCents: 1 })
      .expect(404);
    const bad = await agent
      .post('/api/admin/purchases/offline')
      .set('Origin', origin)
      .send({ videoId: video.id, buyerName: '', buyerEmail: 'nope', amountCents: -5 })
      .expect(400);
    expect(bad.body.issues.map((issue: { path: string }) => issue.path).sort()).toEqual([
      'amountCents',
      'buyerEmail',
      'buyerName',
    ]);
  });

  it('lists with filters, pages and totals', async () => {
    const video = await createVideo(env.database.db, { title: 'Filter Target' });
    const other = await createVideo(env.database.db, { title: 'Something Else' });
    const march = new Date('2020-03-14T00:30:00Z'); // 14 March, 1:30 pm in Auckland
    await purchase(video.id, {
      status: 'paid',
      buyerName: 'Filter Ana',
      amountCents: 1000,
      createdAt: march,
    });
    await purchase(video.id, { status: 'paid', buyerName: 'Filter Ben', amountCents: 2000 });
    await purchase(video.id, { status: 'refunded', buyerName: 'Filter Cat', amountCents: 500 });
    await purchase(video.id, { status: 'pending', buyerName: 'Filter Dee', amountCents: 700 });
    await purchase(other.id, { status: 'paid', buyerName: 'Filter Eve', amountCents: 9000 });

    const all = await agent.get(`/api/admin/purchases?videoId=${video.id}`).expect(200);
    expect(all.body).toMatchObject({ total: 4, page: 1 });
    expect(all.body.totals).toMatchObject({ count: 4, paidCount: 2, paidCents: 3000, refundedCents: 500 });
    expect(all.body.purchases[0]).toMatchObject({
      itemCount: 1,
      items: [expect.objectContaining({ videoId: video.id, title: 'Filter Target' })],
    });

    const paid = await agent.get(`/api/admin/purchases?videoId=${video.id}&status=paid`).expect(200);
    expect(paid.body.purchases.map((row: { buyerName: string }) => row.buyerName).sort()).toEqual([
      'Filter Ana',
      'Filter Ben',
    ]);
    const search = await agent.get('/api/admin/purchases?q=filter%20eve').expect(200);
    expect(search.body.purchases).toEqual([expect.objectContaining({ buyerName: 'Filter Eve' })]);
    const byTitle = await agent.get('/api/admin/purchases?q=something%20else').expect(200);
    expect(byTitle.body.total).toBe(1);
    const day = await agent.get('/api/admin/purchases?from=2020-03-14&to=2020-03-14').expect(200);
    expect(day.body.purchases).toEqual([expect.objectContaining({ buyerName: 'Filter Ana' })]);
    const dayBefore = await agent.get('/api/admin/purchases?to=2020-03-13&q=filter').expect(200);
    expect(dayBefore.body.total).toBe(0);

    const first = await agent.get(`/api/admin/purchases?videoId=${video.id}&pageSize=3`).expect(200);
    const second = await agent.get(`/api/admin/purchases?videoId=${video.id}&pageSize=3&page=2`).expect(200);
    expect(first.body.purchases).toHaveLength(3);
    expect(second.body.purchases).toHaveLength(1);
    expect(second.body.total).toBe(4);
    await agent.get('/api/admin/purchases?status=nope').expect(400);
    await agent.get('/api/admin/purchases?pageSize=5000').expect(400);
  });

  it('exports CSV that spreadsheets read as text: quotes, commas, line breaks and formulas', async () => {
    const video = await createVideo(env.database.db, { title: '=HYPERLINK("http://evil","x")' });
    await purchase(video.id, { status: 'paid', buyerName: 'Smith, "Jo"\nSecond line', amountCents: 1234 });
    await purchase(video.id, { status: 'paid', buyerName: '+64 21 000', amountCents: 1 });
    await purchase(video.id, { status: 'paid', buyerName: '@SUM(1)', amountCents: 1 });
    const csv = await agent.get(`/api/admin/purchases.csv?videoId=${video.id}`).expect(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    expect(csv.headers['content-disposition']).toMatch(/attachment; filename="purchases\.csv"/);
    expect(csv.text.split('\r\n')[0]).toMatch(/^"Date","Purchase","Status"/);
    expect(csv.text).toContain(`"'=HYPERLINK(""http://evil"",""x"")"`);
    expect(csv.text).toContain('"Smith, ""Jo""\nSecond line"');
    expect(csv.text).toContain(`"'+64 21 000"`);
    expect(csv.text).toContain(`"'@SUM(1)"`);
    expect(csv.text).toContain('"12.34"');
    expect(csv.text).not.toMatch(/(^|,)"[=+\-@]/m);
  });

  it('resends the receipt of a paid purchase, and only of a paid one', async () => {
    const video = await createVideo(env.database.db, { title: 'Resend Me' });
    const paid = await purchase(video.id, { status: 'paid', buyerName: 'Resend Ria', amountCents: 800 });
    const pending = await purchase(video.id, {
      status: 'pending',
      buyerName: 'Resend Sam',
      amountCents: 800,
    });
    for (let time = 0; time < 2; time++) {
      const queued = await agent
        .post(`/api/admin/purchases/${paid}/resend`)
        .set('Origin', origin)
        .expect(202);
      expect(queued.body).toMatchObject({ queue: 'purchase-receipt', jobId: expect.any(String) });
      await drain(worker.producer, 'purchase-receipt');
    }
    await expect
      .poll(() => smtp.messages.filter((mail) => mail.subject === 'Your video: Resend Me').length)
      .toBe(2);
    await agent.post(`/api/admin/purchases/${pending}/resend`).set('Origin', origin).expect(409);
    await agent.post(`/api/admin/purchases/${randomUUID()}/resend`).set('Origin', origin).expect(404);
  });

  it('records an offline payment for several videos and a bundle, lists its items and exports a row per item', async () => {
    const showcase = await createShowcase(env.database.db, {
      name: 'Offline Juniors',
      bundlePriceCents: 3000,
    });
    const bundled = await Promise.all(
      [2000, 2000].map((priceCents, index) =>
        createVideo(env.database.db, { priceCents, showcaseId: showcase.id, title: `Junior ${index + 1}` }),
      ),
    );
    const solos = await Promise.all(
      [1000, 2000].map((priceCents, index) =>
        createVideo(env.database.db, { priceCents, title: `Cart Solo ${index + 1}` }),
      ),
    );
    const answer = await agent
      .post('/api/admin/purchases/offline')
      .set('Origin', origin)
      .send({
        videoIds: solos.map((video) => video.id),
        showcaseIds: [showcase.id],
        buyerName: 'Cart Kahu',
        buyerEmail: 'kahu@example.nz',
        amountCents: 5000,
      })
      .expect(202);
    await drain(worker.producer, 'record-sale');
    await drain(worker.producer, 'purchase-receipt');

    const list = await agent.get('/api/admin/purchases?q=cart%20kahu').expect(200);
    expect(list.body.totals).toMatchObject({ paidCount: 1, paidItems: 4, paidCents: 5000 });
    const [purchase] = list.body.purchases;
    expect(purchase).toMatchObject({ id: answer.body.id, status: 'paid', itemCount: 4, amountCents: 5000 });
    expect(
      purchase.items.filter((item: { bundleName: string }) => item.bundleName === 'Offline Juniors'),
    ).toHaveLength(2);
    // Shared out in proportion to the list prices: 1000 + 2000 + 3000 (the bundle) for 5000 paid.
    expect(purchase.items.map((item: { amountCents: number }) => item.amountCents)).toEqual([
      833, 1667, 1250, 1250,
    ]);
    expect(await env.database.db.$count(sales, eq(sales.purchaseId, answer.body.id))).toBe(1);
    // Any of the videos, bundled or not, finds the purchase.
    const byVideo = await agent.get(`/api/admin/purchases?videoId=${bundled[1]!.id}`).expect(200);
    expect(byVideo.body.purchases.map((row: { id: string }) => row.id)).toEqual([answer.body.id]);

    const csv = await agent.get('/api/admin/purchases.csv?q=cart%20kahu').expect(200);
    const rows = csv.text.trim().split('\r\n').slice(1);
    expect(rows).toHaveLength(4);
    for (const line of rows) expect(line).toContain(`"${answer.body.id}"`);
    const amounts = rows.map((line) => Number(line.split('","')[9]));
    expect(amounts.reduce((sum, value) => sum + value, 0)).toBeCloseTo(50, 2);

    const mail = await smtp.waitFor((message) => message.subject === 'Your 4 videos from Stagelight Studio');
    for (const video of [...solos, ...bundled])
      expect(mail.text).toContain(`/video/${video.id}/download?session_id=offline_${answer.body.id}`);
    expect(mail.text).toContain('All your videos, any time: http://localhost:3000/my-videos');
    expect(mail.html).toContain('Junior 2');

    // Resend works for a cart too.
    await agent.post(`/api/admin/purchases/${answer.body.id}/resend`).set('Origin', origin).expect(202);
    await drain(worker.producer, 'purchase-receipt');
    await expect
      .poll(() => smtp.messages.filter((message) => message.subject === mail.subject).length)
      .toBe(2);

    const summary = await agent.get('/api/admin/sales-summary').expect(200);
    expect(summary.body.paidItems).toBeGreaterThanOrEqual(4);
    expect(summary.body.revenueCents).toBeGreaterThanOrEqual(5000);
    await request(api.app).get('/api/admin/sales-summary').expect(401);

    const noBundle = await createShowcase(env.database.db, { name: 'No Bundle Here' });
    const refused = await agent
      .post('/api/admin/purchases/offline')
      .set('Origin', origin)
      .send({ showcaseIds: [noBundle.id], buyerName: 'X', buyerEmail: 'x@example.nz', amountCents: 1 })
      .expect(400);
    expect(refused.body.message).toContain('No Bundle Here');
    await agent
      .post('/api/admin/purchases/offline')
      .set('Origin', origin)
      .send({ buyerName: 'X', buyerEmail: 'x@example.nz', amountCents: 1 })
      .expect(400);
  });
});
