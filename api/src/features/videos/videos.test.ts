import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import sharp from 'sharp';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { videoStatEvents, type PurchaseStatus } from '@app/shared/db';
import { hashPassword } from '@app/shared/password';
import {
  downloadLinkSchema,
  publicVideoSchema,
  showcaseSummarySchema,
  streamLinkSchema,
  videoTokenSchema,
} from '@app/shared/schemas';
import { createToken, purposeKey } from '@app/shared/signing';
import { createShowcase, createVideo, createPurchase } from '../../../../test/support/factories.ts';
import { useTestWorld } from '../../../../test/support/world.ts';

const { env, api } = useTestWorld({ api: true });

/** A purchase row in the given state, as fulfilment leaves it. */
async function purchase(videoId: string, status: PurchaseStatus) {
  const sessionId = `cs_test_${randomUUID()}`;
  await createPurchase(env.database.db, {
    videoId,
    checkoutSessionId: sessionId,
    buyerName: 'Aroha',
    buyerEmail: 'aroha@example.nz',
    amountCents: 1200,
    currency: 'nzd',
    status,
  });
  return sessionId;
}

/** A stored file behind a video, so a link can be followed to its bytes. */
async function storedVideo(overrides: Parameters<typeof createVideo>[1] = {}) {
  const key = `videos/${randomUUID()}.mp4`;
  const bytes = Buffer.from(`video bytes ${randomUUID()}`);
  await api.deps.storage.put(key, bytes, 'video/mp4');
  return { video: await createVideo(env.database.db, { awsKey: key, ...overrides }), bytes };
}

/** Reads any response body as bytes (supertest leaves video/* unparsed). */
const bytesOf = (res: unknown, done: (error: Error | null, body: Buffer) => void) => {
  const chunks: Buffer[] = [];
  const stream = res as NodeJS.ReadableStream;
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  stream.on('end', () => done(null, Buffer.concat(chunks)));
};

const stats = async (videoId: string, kind: 'view' | 'download') =>
  env.database.db.$count(
    videoStatEvents,
    and(eq(videoStatEvents.videoId, videoId), eq(videoStatEvents.kind, kind)),
  );

const routes = [
  { path: 'video-stream', field: 'streamUrl', kind: 'view' },
  { path: 'download', field: 'downloadUrl', kind: 'download' },
] as const;
const linkSchema = { streamUrl: streamLinkSchema, downloadUrl: downloadLinkSchema };

describe('the public library', () => {
  it('lists videos in showcase order (no showcase last) without password hashes or storage keys', async () => {
    const { db } = env.database;
    const later = await createShowcase(db, { orderPriority: 5 });
    const first = await createShowcase(db, { orderPriority: 1 });
    await createVideo(db, { title: 'loose', showcaseId: null });
    await createVideo(db, { title: 'in later', showcaseId: later.id, previewUrl: 'previews/a.jpg' });
    await createVideo(db, {
      title: 'in first',
      showcaseId: first.id,
      passwordProtected: true,
      passwordHash: await hashPassword('s3cret'),
    });
    const response = await request(api.app).get('/api/videos').expect(200);
    expect(
      publicVideoSchema
        .strict()
        .array()
        .parse(response.body)
        .map((video) => video.title),
    ).toEqual(['in first', 'in later', 'loose']);
    expect(response.body[1]).toMatchObject({ previewUrl: 'previews/a.jpg', priceCents: 0 });
    expect(JSON.stringify(response.body)).not.toMatch(/passwordHash|awsKey|scrypt|videos\//);

    const showcases = await request(api.app).get('/api/showcases').expect(200);
    expect(
      showcaseSummarySchema
        .array()
        .parse(showcases.body)
        .map((showcase) => showcase.id),
    ).toEqual([first.id, later.id]);
  });

  it('answers one video, or a JSON 404', async () => {
    const video = await createVideo(env.database.db, {
      passwordProtected: true,
      passwordHash: await hashPassword('x'),
    });
    const { body } = await request(api.app).get(`/api/videos/${video.id}`).expect(200);
    expect(publicVideoSchema.strict().parse(body)).toMatchObject({
      id: video.id,
      title: video.title,
      passwordProtected: true,
    });
    expect(body).not.toHaveProperty('passwordHash');
    expect(body).not.toHaveProperty('awsKey');
    const missing = await request(api.app).get('/api/videos/no-such-video').expect(404);
    expect(missing.body).toEqual({ message: 'Video not found', code: 'not_found' });
  });
});

describe('video previews', () => {
  it('serves pictures from our previews folder only: no videos, no traversal, no URLs', async () => {
    const key = `previews/${randomUUID()}.jpg`;
    const picture = await sharp({ create: { width: 64, height: 36, channels: 3, background: '#224466' } })
      .jpeg()
      .toBuffer();
    await api.deps.storage.put(key, picture, 'image/jpeg');
    const preview = await request(api.app)
      .get(`/api/video-preview/${encodeURIComponent(key)}`)
      .buffer(true)
      .parse(bytesOf)
      .expect(200);
    expect(preview.headers['content-type']).toBe('image/jpeg');
    expect(preview.headers['cache-control']).toMatch(/max-age=\d+/);
    // Through the image pipeline (metadata stripped): the same picture, not the same bytes.
    expect((await sharp(preview.body as Buffer).metadata()).width).toBe(64);
    // What is not a picture is not served, whatever its name says.
    const fake = `previews/${randomUUID()}.jpg`;
    await api.deps.storage.put(fake, Buffer.from('jpeg bytes'), 'image/jpeg');
    await request(api.app)
      .get(`/api/video-preview/${encodeURIComponent(fake)}`)
      .expect(404);

    const { video } = await storedVideo({ priceCents: 5000 });
    const refused = [
      video.awsKey,
      `previews/../${video.awsKey}`,
      `previews/${randomUUID()}.mp4`,
      `previews/${randomUUID()}.jpg`,
      'https://example.com/picture.jpg',
      '/etc/passwd',
    ];
    for (const candidate of refused) {
      const response = await request(api.app)
        .get(`/api/video-preview/${encodeURIComponent(candidate)}`)
        .expect(404);
      expect(response.body).toEqual({ message: 'Preview not found', code: 'not_found' });
    }
  });
});

describe('video preview widths', () => {
  it('makes a phone-sized copy of a preview when asked for a width, in the format the browser takes', async () => {
    const key = `previews/${randomUUID()}.jpg`;
    const picture = await sharp({ create: { width: 1600, height: 900, channels: 3, background: '#224466' } })
      .jpeg()
      .toBuffer();
    await api.deps.storage.put(key, picture, 'image/jpeg');
    const url = `/api/video-preview/${encodeURIComponent(key)}`;

    const small = await request(api.app).get(`${url}?w=480`).buffer(true).parse(bytesOf).expect(200);
    expect(small.headers['content-type']).toBe('image/jpeg');
    expect(small.headers.etag).toBeTruthy();
    expect((await sharp(small.body as Buffer).metadata()).width).toBe(480);

    const webp = await request(api.app)
      .get(`${url}?w=480`)
      .set('Accept', 'image/webp,*/*')
      .buffer(true)
      .parse(bytesOf)
      .expect(200);
    expect(webp.headers['content-type']).toBe('image/webp');
    expect(webp.headers.vary).toMatch(/Accept/);

    await request(api.app).get(`${url}?w=481`).expect(400);
    const missing = `/api/video-preview/${encodeURIComponent(`previews/${randomUUID()}.jpg`)}?w=480`;
    expect((await request(api.app).get(missing).expect(404)).body).toEqual({
      message: 'Preview not found',
      code: 'not_found',
    });
  });
});

describe('video passwords', () => {
  it('gives a short-lived token for the right password only, bound to that video', async () => {
    const { db } = env.database;
    const video = await createVideo(db, {
      passwordProtected: true,
      passwordHash: await hashPassword('encore'),
    });
    const other = await createVideo(db, {
      passwordProtected: true,
      passwordHash: await hashPassword('encore'),
    });
    const wrong = await request(api.app)
      .post('/api/verify-video-password')
      .send({ videoId: video.id, password: 'nope' })
      .expect(401);
    expect(wrong.body.message).toEqual(expect.any(String));
    await request(api.app).post('/api/verify-video-password').send({ videoId: video.id }).expect(400);
    await request(api.app)
      .post('/api/verify-video-password')
      .send({ videoId: 'missing', password: 'x' })
      .expect(404);

    const { body } = await request(api.app)
      .post('/api/verify-video-password')
      .send({ videoId: video.id, password: 'encore' })
      .expect(200);
    expect(videoTokenSchema.strict().parse(body)).toEqual({
      token: expect.any(String),
      expiresAt: expect.any(String),
    });
    const lifetime = Date.parse(body.expiresAt) - Date.now();
    expect(lifetime).toBeGreaterThan(60 * 60_000);
    expect(lifetime).toBeLessThanOrEqual(2 * 60 * 60_000);

    await request(api.app)
      .post(`/api/video-stream/${video.id}`)
      .send({ verificationToken: body.token })
      .expect(200);
    await request(api.app)
      .post(`/api/video-stream/${other.id}`)
      .send({ verificationToken: body.token })
      .expect(401);
  });

  it('limits guesses per visitor and video', async () => {
    const { db } = env.database;
    const video = await createVideo(db, {
      passwordProtected: true,
      passwordHash: await hashPassword('right'),
    });
    const other = await createVideo(db, {
      passwordProtected: true,
      passwordHash: await hashPassword('right'),
    });
    const guess = (videoId: string, ip: string) =>
      request(api.app)
        .post('/api/verify-video-password')
        .set('X-Forwarded-For', ip)
        .send({ videoId, password: 'guess' });
    for (let attempt = 0; attempt < 10; attempt++)
      expect((await guess(video.id, '203.0.113.7')).status).toBe(401);
    const limited = await guess(video.id, '203.0.113.7');
    expect(limited.status).toBe(429);
    expect(limited.body.message).toMatch(/Too many password attempts/);
    expect(limited.headers['retry-after']).toMatch(/^\d+$/);
    expect((await guess(other.id, '203.0.113.7')).status).toBe(401);
    expect((await guess(video.id, '203.0.113.8')).status).toBe(401);
  });

  it('keys the limit on the id the route uses: padded ids and extra fields share one bucket', async () => {
    const video = await createVideo(env.database.db, {
      passwordProtected: true,
      passwordHash: await hashPassword('right'),
    });
    const ip = '203.0.113.20';
    // Each guess dresses the same video differently; all eleven count against one bucket.
    const guesses = Array.from({ length: 11 }, (_, attempt) => {
      const junk = { videoId: randomUUID() };
      switch (attempt % 3) {
        case 0:
          return request(api.app)
            .post('/api/verify-video-password')
            .set('X-Forwarded-For', ip)
            .send({ videoId: `${' '.repeat(attempt + 1)}${video.id} `, password: 'guess' });
        case 1:
          return request(api.app)
            .post(`/api/video-stream/${video.id}`)
            .set('X-Forwarded-For', ip)
            .send({ password: 'guess', ...junk });
        default:
          return request(api.app)
            .post(`/api/download/${encodeURIComponent(` ${video.id}`)}`)
            .set('X-Forwarded-For', ip)
            .send({ password: 'guess' });
      }
    });
    const statuses: number[] = [];
    for (const sent of guesses) statuses.push((await sent).status);
    // A junk field is refused outright (400) and still counts; nothing gets through.
    expect(statuses.slice(0, 10).every((status) => status === 401 || status === 400)).toBe(true);
    expect(statuses).toContain(400);
    expect(statuses[10]).toBe(429);
    // The right password with a junk field opens nothing.
    await request(api.app)
      .post(`/api/video-stream/${video.id}`)
      .set('X-Forwarded-For', '203.0.113.21')
      .send({ password: 'right', videoId: randomUUID() })
      .expect(400);
  });

  it('slows a guesser spread over many addresses, once a video has had 50 wrong guesses', async () => {
    const video = await createVideo(env.database.db, {
      passwordProtected: true,
      passwordHash: await hashPassword('right'),
    });
    const guess = (ip: string, password = 'guess') =>
      request(api.app).post(`/api/video-stream/${video.id}`).set('X-Forwarded-For', ip).send({ password });
    for (let address = 1; address <= 60; address++)
      expect((await guess(`198.18.${address}.1`)).status).toBe(401);
    // Each of those addresses would have nine guesses left; the slowdown stops them all.
    const slowed = await guess('198.18.1.1');
    expect(slowed.status).toBe(429);
    expect(Number(slowed.headers['retry-after'])).toBeGreaterThan(0);
    expect((await guess('198.18.2.1', 'right')).status).toBe(429);
    // A family that has not guessed wrong still gets in; another video is not slowed.
    expect((await guess('198.18.200.1', 'right')).status).toBe(200);
    const job = (await api.deps.producer.queue('security-alert').getJobs(['waiting', 'delayed'])).map(
      (queued) => queued.data,
    );
    expect(job).toEqual([{ what: 'video-password', videoId: video.id, failures: 51, windowMinutes: 60 }]);
  });
});

describe('stream and download links', () => {
  it('open a free video for anyone, counting views and downloads, through links that expire', async () => {
    const { video, bytes } = await storedVideo({ title: 'Junior Tap Solo' });
    for (const { path, field, kind } of routes) {
      const response = await request(api.app).post(`/api/${path}/${video.id}`).send({}).expect(200);
      expect(response.headers['cache-control']).toBe('no-store');
      const parsed: Record<string, unknown> = linkSchema[field].parse(response.body);
      const link = new URL(String(parsed[field]));
      expect(link.pathname).toMatch(/^\/api\/files\//);
      const file = await request(api.app)
        .get(`${link.pathname}${link.search}`)
        .buffer(true)
        .parse(bytesOf)
        .expect(200);
      expect(Buffer.from(file.body as Buffer)).toEqual(bytes);
      if (kind === 'download') expect(file.headers['content-disposition']).toMatch(/Junior-Tap-Solo\.mp4/);
      const part = await request(api.app)
        .get(`${link.pathname}${link.search}`)
        .set('Range', 'bytes=2-5')
        .buffer(true)
        .parse(bytesOf)
        .expect(206);
      expect(Buffer.from(part.body as Buffer)).toEqual(bytes.subarray(2, 6));

      // Tampered or expired links are refused, never a file.
      await request(api.app)
        .get(`${link.pathname}${link.search.replace(/sig=[^&]+/, 'sig=forged')}`)
        .expect(403);
      await request(api.app)
        .get(`${link.pathname}${link.search.replace(/expires=\d+/, 'expires=1000')}`)
        .expect(403);
      const expires = Number(link.searchParams.get('expires'));
      expect(expires * 1000 - Date.now()).toBeGreaterThan(59 * 60_000);
      expect(expires * 1000 - Date.now()).toBeLessThanOrEqual(60 * 60_000);
      expect(await stats(video.id, kind)).toBe(1);
    }
  });

  it("count a visitor's views and downloads of a video once per hour, and limit its links", async () => {
    const { video } = await storedVideo();
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 100; attempt++) {
      const response = await request(api.app)
        .post(`/api/download/${video.id}`)
        .set('X-Forwarded-For', '192.0.2.50')
        .send({});
      statuses.push(response.status);
    }
    expect(statuses.slice(0, 60).every((status) => status === 200)).toBe(true);
    expect(statuses.slice(60).every((status) => status === 429)).toBe(true);
    expect(await stats(video.id, 'download')).toBe(1);
    // Another visitor counts, and views are counted apart from downloads.
    await request(api.app)
      .post(`/api/download/${video.id}`)
      .set('X-Forwarded-For', '192.0.2.51')
      .send({})
      .expect(200);
    await request(api.app)
      .post(`/api/video-stream/${video.id}`)
      .set('X-Forwarded-For', '192.0.2.51')
      .send({})
      .expect(200);
    expect(await stats(video.id, 'download')).toBe(2);
    expect(await stats(video.id, 'view')).toBe(1);
  });

  it('want the password or a token for a protected video (401 otherwise)', async () => {
    const { video } = await storedVideo({
      passwordProtected: true,
      passwordHash: await hashPassword('encore'),
    });
    const other = await createVideo(env.database.db, {
      passwordProtected: true,
      passwordHash: await hashPassword('encore'),
    });
    const { body } = await request(api.app)
      .post('/api/verify-video-password')
      .send({ videoId: video.id, password: 'encore' })
      .expect(200);
    const key = purposeKey(env.config.SESSION_SECRET, 'video-password');
    const expired = createToken(key, { v: video.id, exp: Math.floor(Date.now() / 1000) - 1 });
    const otherToken = (
      await request(api.app)
        .post('/api/verify-video-password')
        .send({ videoId: other.id, password: 'encore' })
        .expect(200)
    ).body.token as string;

    for (const { path, field, kind } of routes) {
      const url = `/api/${path}/${video.id}`;
      const missing = await request(api.app).post(url).send({}).expect(401);
      expect(missing.body.message).toEqual(expect.any(String));
      expect(missing.body).not.toHaveProperty(field);
      await request(api.app).post(url).send({ password: 'wrong' }).expect(401);
      await request(api.app)
        .post(url)
        .send({ verificationToken: `${body.token}x` })
        .expect(401);
      await request(api.app).post(url).send({ verificationToken: expired }).expect(401);
      await request(api.app).post(url).send({ verificationToken: otherToken }).expect(401);
      await request(api.app).post(url).send({ verificationToken: 'not.a.token' }).expect(401);
      expect(await stats(video.id, kind)).toBe(0);
      const byPassword = await request(api.app).post(url).send({ password: 'encore' }).expect(200);
      expect(byPassword.body[field]).toContain('/api/files/');
      await request(api.app).post(url).send({ verificationToken: body.token }).expect(200);
      // The same visitor again within the hour: one event.
      expect(await stats(video.id, kind)).toBe(1);
    }
  });

  it("keep a protected video's poster frame and clip from another video's token, an expired or a tampered one", async () => {
    // Issue 28, bad input: 4xx, and the same answer as for a key that does not exist.
    const hex = () => randomUUID().replaceAll('-', '').slice(0, 24);
    const media = { posterKey: `previews/posters/${hex()}.jpg`, clipKey: `clips/${hex()}.mp4` };
    await api.deps.storage.put(
      media.posterKey,
      await sharp({ create: { width: 32, height: 18, channels: 3, background: '#336699' } })
        .jpeg()
        .toBuffer(),
      'image/jpeg',
    );
    await api.deps.storage.put(media.clipKey, Buffer.from('clip bytes'), 'video/mp4');
    const video = await createVideo(env.database.db, {
      passwordProtected: true,
      passwordHash: await hashPassword('encore'),
      priceCents: 1500,
      media: media as never,
    });
    const other = await createVideo(env.database.db, {
      passwordProtected: true,
      passwordHash: await hashPassword('encore'),
    });
    await api.deps.publicCache.changed();
    const tokenOf = async (videoId: string) =>
      videoTokenSchema.parse(
        (
          await request(api.app)
            .post('/api/verify-video-password')
            .send({ videoId, password: 'encore' })
            .expect(200)
        ).body,
      ).token;
    const token = await tokenOf(video.id);
    const key = purposeKey(env.config.SESSION_SECRET, 'video-password');
    const expired = createToken(key, { v: video.id, exp: Math.floor(Date.now() / 1000) - 1 });
    const tampered = `${token.slice(0, -2)}${token.endsWith('AA') ? 'BB' : 'AA'}`;
    const poster = `/api/video-preview/${encodeURIComponent(media.posterKey)}`;
    const clip = `/api/video-clips/${encodeURIComponent(media.clipKey)}`;
    const nowhere = {
      [poster]: (
        await request(api.app).get(`/api/video-preview/previews%2Fposters%2F${hex()}.jpg`).expect(404)
      ).body,
      [clip]: (await request(api.app).get(`/api/video-clips/clips%2F${hex()}.mp4`).expect(404)).body,
    };
    for (const url of [poster, clip]) {
      for (const wrong of [undefined, await tokenOf(other.id), expired, tampered, 'not.a.token']) {
        const answer = await request(api.app)
          .get(wrong === undefined ? url : `${url}?token=${encodeURIComponent(wrong)}`)
          .expect(404);
        expect(answer.body, `${url} ${wrong}`).toEqual(nowhere[url]);
      }
      const served = await request(api.app)
        .get(`${url}?token=${encodeURIComponent(token)}`)
        .expect(200);
      expect(served.headers['cache-control']).toBe('private, no-store');
    }
  });

  it('want a paid purchase of this very video for a paid one (403 otherwise)', async () => {
    const { video } = await storedVideo({ priceCents: 1200 });
    const otherVideo = await createVideo(env.database.db, { priceCents: 1200 });
    const paid = await purchase(video.id, 'paid');
    const paidForOther = await purchase(otherVideo.id, 'paid');
    const refused = [
      {},
      { sessionId: 'cs_test_unknown' },
      { sessionId: await purchase(video.id, 'pending') },
      { sessionId: await purchase(video.id, 'refunded') },
      { sessionId: await purchase(video.id, 'failed') },
      { sessionId: await purchase(video.id, 'expired') },
      { sessionId: paidForOther },
      { password: 'anything' },
    ];
    for (const { path, field } of routes) {
      for (const proof of refused) {
        const response = await request(api.app).post(`/api/${path}/${video.id}`).send(proof);
        expect(response.status, JSON.stringify(proof)).toBe(403);
        expect(response.body).not.toHaveProperty(field);
      }
      const ok = await request(api.app)
        .post(`/api/${path}/${video.id}`)
        .send({ sessionId: paid })
        .expect(200);
      expect(ok.body[field]).toContain('/api/files/');
      // That purchase opens only its own video.
      await request(api.app).post(`/api/${path}/${otherVideo.id}`).send({ sessionId: paid }).expect(403);
    }
  });

  it('want both for a paid protected video: the password (401) and the purchase (403)', async () => {
    const { video } = await storedVideo({
      priceCents: 1500,
      passwordProtected: true,
      passwordHash: await hashPassword('encore'),
    });
    const paid = await purchase(video.id, 'paid');
    for (const { path } of routes) {
      const url = `/api/${path}/${video.id}`;
      await request(api.app).post(url).send({ sessionId: paid }).expect(401);
      await request(api.app).post(url).send({ sessionId: paid, password: 'wrong' }).expect(401);
      await request(api.app).post(url).send({ password: 'encore' }).expect(403);
      await request(api.app).post(url).send({ password: 'encore', sessionId: paid }).expect(200);
    }
  });

  it('answer 404 for a video that does not exist and 400 for a malformed body', async () => {
    for (const { path } of routes) {
      await request(api.app).post(`/api/${path}/no-such-video`).send({}).expect(404);
      const video = await createVideo(env.database.db);
      await request(api.app)
        .post(`/api/${path}/${video.id}`)
        .send({ sessionId: 'x'.repeat(300) })
        .expect(400);
    }
  });
});
