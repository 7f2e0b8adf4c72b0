import { eq, inArray } from 'drizzle-orm';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { purchases, videos, purchaseItems } from '@app/shared/db';
import {
  adminVideoSchema,
  adminShowcaseSchema,
  adminVideoListSchema,
  downloadLinkSchema,
  publicVideoSchema,
  publishedStateSchema,
} from '@app/shared/schemas';
import { z } from 'zod';
import { createPurchase, createShowcase, createVideo } from '../../../../test/support/factories.ts';
import { useTestWorld } from '../../../../test/support/world.ts';

const { env, api, agent } = useTestWorld({ admin: true });
const origin = 'http://localhost:3000';

const publicIds = async (path = '/api/videos') =>
  z
    .array(z.object({ id: z.string() }))
    .parse((await request(api.app).get(path).expect(200)).body)
    .map((row) => row.id);
const stored = async (key: string) => api.deps.storage.put(key, Buffer.from(`file ${key}`), 'video/mp4');
const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3600_000);

describe('hiding a video', () => {
  it('takes it off every public list, page, checkout and the sitemap at once, while its buyer keeps the download', async () => {
    // In a showcase shown in search engines, so its page is in the sitemap until it is hidden.
    const showcase = await createShowcase(env.database.db, { showVideosInSearchEngines: true });
    const video = await createVideo(env.database.db, {
      priceCents: 1200,
      title: 'Senior Jazz Final',
      showcaseId: showcase.id,
    });
    await stored(video.awsKey);
    const sold = await createPurchase(env.database.db, {
      videoId: video.id,
      status: 'paid',
      paidAt: new Date(),
    });
    // Read once, so the cached lists must be dropped by the hide.
    expect(await publicIds()).toContain(video.id);
    const videoSitemap = async () => (await request(api.app).get('/sitemaps/videos-1.xml')).text;
    expect(await videoSitemap()).toContain(video.id);

    const hidden = await agent.post(`/api/admin/videos/${video.id}/hide`).set('Origin', origin).expect(200);
    expect(publishedStateSchema.parse(hidden.body)).toEqual({ id: video.id, published: false });

    expect(await publicIds()).not.toContain(video.id);
    expect(await videoSitemap()).not.toContain(video.id);
    await request(api.app).get(`/api/videos/${video.id}`).expect(404);
    await request(api.app)
      .post('/api/checkout')
      .send({ videoId: video.id, customerEmail: 'new@example.nz', customerName: 'New Buyer' })
      .expect(404);
    await request(api.app).post(`/api/download/${video.id}`).send({}).expect(404);

    // The buyer's link (the success page and the receipt carry the session) still works.
    const page = await request(api.app)
      .get(`/api/videos/${video.id}?session_id=${sold.checkoutSessionId}`)
      .expect(200);
    expect(publicVideoSchema.parse(page.body)).toMatchObject({ id: video.id, title: 'Senior Jazz Final' });
    const download = await request(api.app)
      .post(`/api/download/${video.id}`)
      .send({ sessionId: sold.checkoutSessionId })
      .expect(200);
    expect(downloadLinkSchema.parse(download.body).downloadUrl).toEqual(expect.any(String));
    await request(api.app)
      .post(`/api/video-stream/${video.id}`)
      .send({ sessionId: sold.checkoutSessionId })
      .expect(200);
    // Another checkout's session, unpaid, does not open it.
    const other = await createPurchase(env.database.db, { videoId: video.id, status: 'expired' });
    await request(api.app).get(`/api/videos/${video.id}?session_id=${other.checkoutSessionId}`).expect(404);

    // Hiding twice says so and changes nothing; publishing brings it back.
    const twice = await agent.post(`/api/admin/videos/${video.id}/hide`).set('Origin', origin).expect(409);
    expect(twice.body).toEqual({ message: 'This video is already hidden', code: 'conflict' });
    await agent.post(`/api/admin/videos/${video.id}/publish`).set('Origin', origin).expect(200);
    expect(await publicIds()).toContain(video.id);
  });

  it('hides a showcase with every video in it', async () => {
    const showcase = await createShowcase(env.database.db);
    const video = await createVideo(env.database.db, { showcaseId: showcase.id });
    expect(await publicIds('/api/showcases')).toContain(showcase.id);
    await agent.post(`/api/admin/showcases/${showcase.id}/hide`).set('Origin', origin).expect(200);
    expect(await publicIds('/api/showcases')).not.toContain(showcase.id);
    expect(await publicIds()).not.toContain(video.id);
    await request(api.app).get(`/api/videos/${video.id}`).expect(404);
    // The owner still sees it, marked hidden.
    const own = adminShowcaseSchema
      .strict()
      .array()
      .parse((await agent.get('/api/admin/showcases').expect(200)).body);
    expect(own.find((row) => row.id === showcase.id)?.published).toBe(false);
    const twice = await agent
      .post(`/api/admin/showcases/${showcase.id}/hide`)
      .set('Origin', origin)
      .expect(409);
    expect(twice.body).toEqual({ message: 'This showcase is already hidden', code: 'conflict' });
    // Two clicks at once: one publishes, the other is told it already is.
    const both = await Promise.all(
      [1, 2].map(() => agent.post(`/api/admin/showcases/${showcase.id}/publish`).set('Origin', origin)),
    );
    expect(both.map((res) => res.status).sort()).toEqual([200, 409]);
    expect(await publicIds()).toContain(video.id);
  });

  it('is for the owner only', async () => {
    const video = await createVideo(env.database.db);
    await request(api.app).post(`/api/admin/videos/${video.id}/hide`).set('Origin', origin).expect(401);
    await request(api.app).get('/api/admin/showcases').expect(401);
    await agent.post('/api/admin/videos/no-such-video/hide').set('Origin', origin).expect(404);
    const missing = await agent.post('/api/admin/showcases/no-such-showcase/hide').set('Origin', origin);
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ message: 'Showcase not found', code: 'not_found' });
  });
});

describe('deleting a video', () => {
  it('deletes one nobody paid for, with its abandoned, failed and expired checkouts', async () => {
    const video = await createVideo(env.database.db, { priceCents: 900 });
    const checkouts = [];
    for (const status of ['failed', 'expired'] as const)
      checkouts.push(await createPurchase(env.database.db, { videoId: video.id, status }));
    checkouts.push(await createPurchase(env.database.db, { videoId: video.id, createdAt: hoursAgo(30) }));
    await agent.delete(`/api/admin/videos/${video.id}`).set('Origin', origin).expect(200);
    expect(await env.database.db.$count(videos, eq(videos.id, video.id))).toBe(0);
    expect(await env.database.db.$count(purchaseItems, eq(purchaseItems.videoId, video.id))).toBe(0);
    const ids = checkouts.map((checkout) => checkout.id);
    expect(await env.database.db.$count(purchases, inArray(purchases.id, ids))).toBe(0);
  });

  it('refuses one that was sold, or that a checkout of today may still pay for, and offers Hide', async () => {
    const sold = await createVideo(env.database.db, { priceCents: 900 });
    await createPurchase(env.database.db, { videoId: sold.id, status: 'paid', paidAt: new Date() });
    await createPurchase(env.database.db, { videoId: sold.id, status: 'failed' });
    const refused = await agent.delete(`/api/admin/videos/${sold.id}`).set('Origin', origin).expect(409);
    expect(refused.body.message).toMatch(/has been sold.*Hide it instead/);
    expect(await env.database.db.$count(purchaseItems, eq(purchaseItems.videoId, sold.id))).toBe(2);

    const refunded = await createVideo(env.database.db, { priceCents: 900 });
    await createPurchase(env.database.db, { videoId: refunded.id, status: 'refunded' });
    await agent.delete(`/api/admin/videos/${refunded.id}`).set('Origin', origin).expect(409);

    const open = await createVideo(env.database.db, { priceCents: 900 });
    await createPurchase(env.database.db, { videoId: open.id, createdAt: hoursAgo(2) });
    const waiting = await agent.delete(`/api/admin/videos/${open.id}`).set('Origin', origin).expect(409);
    expect(waiting.body.message).toMatch(/could still pay.*Hide it now/);
    expect(await env.database.db.$count(videos, eq(videos.id, open.id))).toBe(1);
  });
});

describe('only sellable videos are sold', () => {
  const paid = { title: 'Finals', description: 'The finals', priceCents: 2000 };

  it('records the stored file size, and refuses to publish a paid or protected video whose file is missing', async () => {
    const missing = await agent
      .post('/api/admin/videos')
      .set('Origin', origin)
      .send({ ...paid, awsKey: 'videos/typo.mp4' })
      .expect(400);
    expect(missing.body.issues).toEqual([
      { path: 'awsKey', message: expect.stringMatching(/No file is stored/) },
    ]);
    await agent
      .post('/api/admin/videos')
      .set('Origin', origin)
      .send({ ...paid, priceCents: 0, passwordProtected: true, password: 'pw', awsKey: 'videos/typo.mp4' })
      .expect(400);

    // Saved hidden, it waits for its file, flagged in the owner's list.
    const saved = await agent
      .post('/api/admin/videos')
      .set('Origin', origin)
      .send({ ...paid, awsKey: 'videos/finals.mp4', published: false })
      .expect(201);
    const { id, ...created } = adminVideoSchema.strict().parse(saved.body);
    expect(created).toMatchObject({ published: false, fileSize: null });
    const listed = async () =>
      adminVideoListSchema
        .parse((await agent.get('/api/admin/videos').expect(200)).body)
        .videos.find((row) => row.id === id);
    expect((await listed())?.fileSize).toBeNull();
    const refused = await agent.post(`/api/admin/videos/${id}/publish`).set('Origin', origin).expect(400);
    expect(refused.body.issues[0].path).toBe('awsKey');
    await agent.put(`/api/admin/videos/${id}`).set('Origin', origin).send({ published: true }).expect(400);
    expect(await publicIds()).not.toContain(id);

    await stored('videos/finals.mp4');
    expect((await listed())?.fileSize).toBe('file videos/finals.mp4'.length);
    await agent.post(`/api/admin/videos/${id}/publish`).set('Origin', origin).expect(200);
    const [row] = await env.database.db.select().from(videos).where(eq(videos.id, id));
    expect(row).toMatchObject({ published: true, fileSize: 'file videos/finals.mp4'.length });
    expect(await publicIds()).toContain(id);

    // A free, open video may wait for its file in public (nobody pays); the owner's list flags it.
    const free = await agent
      .post('/api/admin/videos')
      .set('Origin', origin)
      .send({ ...paid, priceCents: 0, awsKey: 'videos/later.mp4' })
      .expect(201);
    expect(adminVideoSchema.parse(free.body).fileSize).toBeNull();
  });

  it('refuses storage keys outside storage and previews that are not ours, changing nothing', async () => {
    await stored('videos/ok.mp4');
    const before = await env.database.db.$count(videos);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ awsKey: '../secrets/ok.mp4' }, 'awsKey'],
      [{ awsKey: 'videos/../../etc/passwd' }, 'awsKey'],
      [{ awsKey: '/etc/passwd' }, 'awsKey'],
      [{ previewUrl: 'https://elsewhere.example/p.jpg' }, 'previewUrl'],
      [{ previewUrl: '//elsewhere.example/p.jpg' }, 'previewUrl'],
      [{ previewUrl: 'videos/ok.mp4' }, 'previewUrl'],
      [{ previewUrl: 'previews/not-uploaded.jpg' }, 'previewUrl'],
    ];
    for (const [change, field] of cases) {
      const response = await agent
        .post('/api/admin/videos')
        .set('Origin', origin)
        .send({ ...paid, awsKey: 'videos/ok.mp4', ...change })
        .expect(400);
      expect(response.body.issues?.[0]?.path, JSON.stringify(change)).toBe(field);
      expect(response.body.message).toEqual(expect.any(String));
    }
    expect(await env.database.db.$count(videos)).toBe(before);

    const video = await createVideo(env.database.db, { awsKey: 'videos/ok.mp4' });
    await agent
      .put(`/api/admin/videos/${video.id}`)
      .set('Origin', origin)
      .send({ previewUrl: 'http://evil.example/x.png' })
      .expect(400);
    await api.deps.storage.put('previews/ok.jpg', Buffer.from('jpeg'), 'image/jpeg');
    for (const previewUrl of ['previews/ok.jpg', '/api/images/hero/stage-hero.jpg', ''])
      await agent.put(`/api/admin/videos/${video.id}`).set('Origin', origin).send({ previewUrl }).expect(200);

    // An edit's new file obeys the same rule as a new video's, and a video file lives under videos/.
    for (const awsKey of ['../../../etc/passwd', '/etc/passwd', 'previews/ok.jpg', 'clips/x.mp4']) {
      const response = await agent
        .put(`/api/admin/videos/${video.id}`)
        .set('Origin', origin)
        .send({ awsKey })
        .expect(400);
      expect(response.body.issues?.[0]?.path, awsKey).toBe('awsKey');
      await agent
        .post('/api/admin/videos')
        .set('Origin', origin)
        .send({ ...paid, awsKey })
        .expect(400);
    }
    const [kept] = await env.database.db.select().from(videos).where(eq(videos.id, video.id));
    expect(kept?.awsKey).toBe('videos/ok.mp4');
  });
});
