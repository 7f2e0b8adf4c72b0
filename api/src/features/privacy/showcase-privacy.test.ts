import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { programmeDancers, programmeEntries, showcases, videos } from '@app/shared/db';
import {
  ACCESS_CODE_REQUIRED,
  adminShowcaseSchema,
  libraryPageSchema,
  libraryShelvesSchema,
  programmeSearchSchema,
  publicVideoSchema,
  showcaseSummarySchema,
  WRONG_ACCESS_CODE,
} from '@app/shared/schemas';
import { programmeCsv } from '../../../../scripts/seed/programme.ts';
import { adminAgent } from '../../../../test/support/app.ts';
import { createShowcase, createVideo } from '../../../../test/support/factories.ts';
import { testJpeg } from '../../../../test/support/media.ts';
import { useTestWorld } from '../../../../test/support/world.ts';
import { importProgramme } from '../programmes/programme-import.ts';

// Private showcases (issue 28, docs/decisions/030): unlisted ones are reached by their link only, and
// access-code ones open for a browser that typed the code.

// Behind a trusted proxy, so the limit test can be one address of its own.
const { env, api } = useTestWorld({
  api: true,
  env: { TRUST_PROXY: 'loopback' },
});

const word = `zq${randomUUID().slice(0, 6)}`;
let unlisted: Awaited<ReturnType<typeof createShowcase>>;
let unlistedVideo: Awaited<ReturnType<typeof createVideo>>;
let publicVideo: Awaited<ReturnType<typeof createVideo>>;

/** A clip stored under a video's media, so the clip route has bytes to serve. */
async function withClip(videoId: string) {
  const clipKey = `clips/${randomUUID().replaceAll('-', '').slice(0, 24)}.mp4`;
  const posterKey = `previews/posters/${randomUUID().replaceAll('-', '').slice(0, 24)}.jpg`;
  await api.deps.storage.put(clipKey, Buffer.from('clip bytes'), 'video/mp4');
  await api.deps.storage.put(posterKey, await testJpeg(), 'image/jpeg');
  await env.database.db.execute(
    `update videos set media = '${JSON.stringify({ clipKey, posterKey })}'::jsonb where id = '${videoId}'`,
  );
  return {
    clip: `/api/video-clips/${encodeURIComponent(clipKey)}`,
    poster: `/api/video-preview/${encodeURIComponent(posterKey)}`,
  };
}

beforeAll(async () => {
  const { db } = env.database;
  const open = await createShowcase(db, { name: 'Open Showcase', slug: `open-${word}` });
  publicVideo = await createVideo(db, { title: `Public ${word} solo`, showcaseId: open.id });
  unlisted = await createShowcase(db, {
    name: 'Family Recital',
    slug: `family-${word}`,
    privacy: 'unlisted',
    // Even ticked, an unlisted showcase's videos stay out of search engines.
    showVideosInSearchEngines: true,
  });
  unlistedVideo = await createVideo(db, {
    title: `Unlisted ${word} duet`,
    showcaseId: unlisted.id,
    priceCents: 1500,
  });
});

describe('an unlisted showcase', () => {
  it('is absent from the library lists, search and sitemaps', async () => {
    const list = publicVideoSchema
      .array()
      .parse((await request(api.app).get('/api/videos').expect(200)).body);
    expect(list.map((video) => video.id)).toContain(publicVideo.id);
    expect(list.map((video) => video.id)).not.toContain(unlistedVideo.id);

    const search = publicVideoSchema
      .array()
      .parse((await request(api.app).get(`/api/videos?q=${word}`).expect(200)).body);
    expect(search.map((video) => video.id)).toEqual([publicVideo.id]);
    const searchPage = libraryPageSchema.parse(
      (await request(api.app).get(`/api/library/search?q=${word}`).expect(200)).body,
    );
    expect(searchPage.videos.map((video) => video.id)).toEqual([publicVideo.id]);

    const summaries = showcaseSummarySchema
      .array()
      .parse((await request(api.app).get('/api/showcases').expect(200)).body);
    expect(summaries.map((showcase) => showcase.id)).not.toContain(unlisted.id);
    const shelves = libraryShelvesSchema.parse((await request(api.app).get('/api/library').expect(200)).body);
    expect(shelves.shelves.map((shelf) => shelf.showcase?.id)).not.toContain(unlisted.id);

    const pages = (await request(api.app).get('/sitemaps/pages.xml').expect(200)).text;
    expect(pages).toContain(`/videos/open-${word}`);
    expect(pages).not.toContain(unlisted.slug);
    const index = (await request(api.app).get('/sitemap.xml').expect(200)).text;
    expect(index).not.toContain('videos-1.xml');

    const html = (await request(api.app).get('/videos').expect(200)).text;
    expect(html).not.toContain(unlisted.slug);
    expect(html).not.toContain(unlistedVideo.title);
    const searchHtml = (await request(api.app).get(`/videos?q=${word}`).expect(200)).text;
    expect(searchHtml).not.toContain(unlistedVideo.title);
  });

  it('opens by its link, with noindex on its page and its videos’ pages', async () => {
    const page = libraryPageSchema.parse(
      (await request(api.app).get(`/api/showcases/${unlisted.slug}/videos`).expect(200)).body,
    );
    expect(page.videos.map((video) => video.id)).toEqual([unlistedVideo.id]);
    expect(page.showcase?.privacy).toBe('unlisted');
    await request(api.app).get(`/api/videos/${unlistedVideo.id}`).expect(200);

    const showcaseHtml = await request(api.app).get(`/videos/${unlisted.slug}`).expect(200);
    expect(showcaseHtml.headers['x-robots-tag']).toBe('noindex');
    expect(showcaseHtml.text).toContain('<meta name="robots" content="noindex" />');
    expect(showcaseHtml.text).toContain('Family Recital');

    const videoHtml = await request(api.app).get(`/video/${unlistedVideo.id}/purchase`).expect(200);
    expect(videoHtml.headers['x-robots-tag']).toBe('noindex');
    expect(videoHtml.text).toContain('<meta name="robots" content="noindex" />');

    // A public showcase's page is indexable: the header is not everywhere.
    const openHtml = await request(api.app).get(`/videos/open-${word}`).expect(200);
    expect(openHtml.headers['x-robots-tag']).toBeUndefined();
  });
});

describe('a showcase behind an access code', () => {
  const code = 'Kowhai-2026';
  let slug: string;
  let id: string;
  let videoId: string;
  let media: { clip: string; poster: string };

  beforeAll(async () => {
    const owner = await adminAgent(api.app);
    const created = adminShowcaseSchema.omit({ videoCount: true }).parse(
      (
        await owner
          .post('/api/admin/showcases')
          .send({
            name: 'Kōwhai Studio Recital',
            description: 'Family only',
            privacy: 'code',
            accessCode: code,
          })
          .expect(201)
      ).body,
    );
    ({ slug, id } = created);
    // The owner reads the code back (to tell the studio); the database holds it encrypted.
    expect(created.accessCode).toBe(code);
    const listed = adminShowcaseSchema
      .array()
      .parse((await owner.get('/api/admin/showcases').expect(200)).body)
      .find((showcase) => showcase.id === id);
    expect(listed?.accessCode).toBe(code);
    const [row] = await env.database.db.select().from(showcases).where(eq(showcases.id, id));
    expect(row!.accessCodeEncrypted).toBeTruthy();
    expect(row!.accessCodeEncrypted).not.toContain(code);

    videoId = (
      await createVideo(env.database.db, { title: `Locked ${word} trio`, showcaseId: id, priceCents: 2000 })
    ).id;
    media = await withClip(videoId);
  });

  it('is refused without the code: no list, video, clip or poster, and not in the library', async () => {
    const refused = await request(api.app).get(`/api/showcases/${slug}/videos`).expect(403);
    expect(refused.body).toEqual({
      message: 'This showcase needs its access code',
      code: ACCESS_CODE_REQUIRED,
    });
    const video = await request(api.app).get(`/api/videos/${videoId}`).expect(403);
    expect(video.body.code).toBe(ACCESS_CODE_REQUIRED);
    await request(api.app).get(media.clip).expect(404);
    await request(api.app).get(media.poster).expect(404);
    await request(api.app).post(`/api/video-stream/${videoId}`).send({}).expect(403);

    const list = publicVideoSchema
      .array()
      .parse((await request(api.app).get(`/api/videos?q=${word}`).expect(200)).body);
    expect(list.map((item) => item.id)).not.toContain(videoId);
    // Filtering by its slug is not a way in either.
    expect((await request(api.app).get(`/api/videos?showcase=${slug}`).expect(200)).body).toEqual([]);

    const html = await request(api.app).get(`/videos/${slug}`).expect(200);
    expect(html.headers['x-robots-tag']).toBe('noindex');
    expect(html.text).not.toContain('Kōwhai');
    expect(html.text).not.toContain('Locked');
    const videoHtml = await request(api.app).get(`/video/${videoId}/purchase`).expect(200);
    expect(videoHtml.text).not.toContain('Locked');
    expect(videoHtml.headers['x-robots-tag']).toBe('noindex');
  });

  it('names its dancers and sells its videos only to a browser that typed the code', async () => {
    const { db } = env.database;
    const dancer = `Tūī ${word}`;
    const rows = [
      { entryNumber: '31', section: 'Junior Trio', title: 'Locked', dancers: [dancer], studio: 'Kōwhai' },
    ];
    await importProgramme(db, id, Buffer.from(programmeCsv(rows)), {});
    const [entry] = await db.select().from(programmeEntries).where(eq(programmeEntries.showcaseId, id));
    await db.update(videos).set({ entryId: entry!.id }).where(eq(videos.id, videoId));
    await db.update(showcases).set({ bundlePriceCents: 1500 }).where(eq(showcases.id, id));
    const [listed] = await db
      .select({ id: programmeDancers.id })
      .from(programmeDancers)
      .where(eq(programmeDancers.showcaseId, id));
    const dancerId = listed!.id;

    const stranger = request.agent(api.app);
    const found = programmeSearchSchema.parse(
      (await stranger.get('/api/programme/search').query({ q: dancer }).expect(200)).body,
    );
    expect(found.groups).toEqual([]);
    const page = await stranger.get(`/api/dancers/${dancerId}`).expect(403);
    expect(page.body.code).toBe(ACCESS_CODE_REQUIRED);
    expect(JSON.stringify(page.body)).not.toContain(word);
    await stranger.get(`/api/showcases/${id}/bundle`).expect(403);
    const checked = await stranger
      .post('/api/cart/check')
      .send({ items: [{ videoId }, { showcaseId: id }] })
      .expect(200);
    expect(checked.body.problems.map((problem: { reason: string }) => problem.reason)).toEqual([
      'hidden',
      'no-bundle',
    ]);
    expect(JSON.stringify(checked.body)).not.toContain(word);
    const buyer = { customerEmail: 'parent@example.com', customerName: 'A Parent' };
    const bought = await stranger
      .post('/api/checkout')
      .send({ videoId, ...buyer })
      .expect(403);
    expect(bought.body.code).toBe(ACCESS_CODE_REQUIRED);
    const refused = await stranger
      .post('/api/cart/checkout')
      .send({ items: [{ videoId }], ...buyer })
      .expect(400);
    expect(JSON.stringify(refused.body)).not.toContain(word);

    // A dancer's page is a way to type the code too.
    await stranger.post('/api/showcase-access').send({ dancerId, code }).expect(200);
    const opened = await stranger.get(`/api/dancers/${dancerId}`).expect(200);
    expect(opened.body.name).toContain('Tūī');
    await stranger.get(`/api/showcases/${id}/bundle`).expect(200);
    const priced = await stranger
      .post('/api/cart/check')
      .send({ items: [{ videoId }] })
      .expect(200);
    expect(priced.body).toMatchObject({ problems: [], totalCents: 2000 });
    // Still nobody finds it by typing the name: search is for public showcases.
    expect(
      (await stranger.get('/api/programme/search').query({ q: dancer }).expect(200)).body.groups,
    ).toEqual([]);
  });

  it('opens for 30 days on the device that typed the code, and only that showcase', async () => {
    const visitor = request.agent(api.app);
    const wrong = await visitor.post('/api/showcase-access').send({ slug, code: 'nope-nope' }).expect(401);
    expect(wrong.body).toEqual({ message: WRONG_ACCESS_CODE, code: 'unauthorized' });
    // The same answer for a showcase that does not exist, and for a public one.
    const nowhere = await visitor
      .post('/api/showcase-access')
      .send({ slug: 'no-such-showcase', code })
      .expect(401);
    expect(nowhere.body).toEqual(wrong.body);
    const open = await visitor.post('/api/showcase-access').send({ slug: unlisted.slug, code }).expect(401);
    expect(open.body).toEqual(wrong.body);

    // Case and spaces do not matter (read out over the phone).
    const opened = await visitor
      .post('/api/showcase-access')
      .send({ slug, code: ` ${code.toLowerCase()} ` })
      .expect(200);
    expect(opened.body).toEqual({ slug });
    const cookie = String(opened.headers['set-cookie']);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/Max-Age=2592000/);

    const page = libraryPageSchema.parse(
      (await visitor.get(`/api/showcases/${slug}/videos`).expect(200)).body,
    );
    expect(page.videos.map((video) => video.id)).toEqual([videoId]);
    await visitor.get(`/api/videos/${videoId}`).expect(200);
    const clip = await visitor.get(media.clip).expect(200);
    expect(clip.headers['cache-control']).toMatch(/^private/);
    await visitor.get(media.poster).expect(200);

    // From the video page, the code opens its showcase too.
    const other = request.agent(api.app);
    await other.post('/api/showcase-access').send({ videoId, code }).expect(200);
    await other.get(`/api/videos/${videoId}`).expect(200);

    // A new code closes every device's old one.
    const owner = await adminAgent(api.app);
    await owner.patch(`/api/admin/showcases/${id}`).send({ accessCode: 'Rata-2027' }).expect(200);
    await visitor.get(`/api/showcases/${slug}/videos`).expect(403);
  });

  it('is refused a code-less switch to access code', async () => {
    const owner = await adminAgent(api.app);
    const created = await owner
      .post('/api/admin/showcases')
      .send({ name: 'No code yet', description: 'x', privacy: 'code' })
      .expect(400);
    expect(created.body.issues).toEqual([
      { path: 'accessCode', message: 'Set the access code the studio will hand out' },
    ]);
  });

  it('limits wrong codes from one address: after ten, 429, even for the right one', async () => {
    const from = (address: string) => ({ 'X-Forwarded-For': address });
    for (let attempt = 0; attempt < 10; attempt++) {
      await request(api.app)
        .post('/api/showcase-access')
        .set(from('203.0.113.7'))
        .send({ slug, code: `guess-${attempt}` })
        .expect(401);
    }
    const limited = await request(api.app)
      .post('/api/showcase-access')
      .set(from('203.0.113.7'))
      .send({ slug, code: 'Rata-2027' })
      .expect(429);
    expect(limited.body.message).toMatch(/Too many access code attempts/);
    // Another address is not held up.
    await request(api.app)
      .post('/api/showcase-access')
      .set(from('203.0.113.8'))
      .send({ slug, code: 'Rata-2027' })
      .expect(200);
  });

  it('slows guessers spread over many addresses past 50 wrong codes an hour, as video passwords', async () => {
    const guess = (address: string, code: string, target: Record<string, string> = { slug }) =>
      request(api.app)
        .post('/api/showcase-access')
        .set('X-Forwarded-For', address)
        .send({ ...target, code });
    // Each address stays far under its own limit; a showcase that does not exist counts the same.
    for (let address = 1; address <= 60; address++)
      expect(
        (await guess(`198.18.${address}.1`, `guess-${address}`, address % 2 ? { slug } : { slug: 'nowhere' }))
          .status,
      ).toBe(401);
    const slowed = await guess('198.18.1.1', 'Rata-2027');
    expect(slowed.status).toBe(429);
    expect(slowed.body.message).toMatch(/^Too many wrong access codes\. Please try again in \d+ seconds?\.$/);
    expect(Number(slowed.headers['retry-after'])).toBeGreaterThan(0);
    // A family that has typed nothing wrong still gets in.
    await guess('198.18.200.1', 'Rata-2027').expect(200);
    const alerts = (await api.deps.producer.queue('security-alert').getJobs(['waiting', 'delayed'])).map(
      (job) => job.data,
    );
    expect(alerts).toEqual([
      { what: 'showcase-access-code', failures: expect.any(Number), windowMinutes: 60 },
    ]);
    expect(alerts[0]!.failures).toBeGreaterThan(50);
  });
});
