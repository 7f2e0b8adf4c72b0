import fc from 'fast-check';
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { videos } from '@app/shared/db';
import { adminAgent } from '../../../../test/support/app.ts';
import { createShowcase, createVideo, createPurchase } from '../../../../test/support/factories.ts';
import { useTestWorld } from '../../../../test/support/world.ts';
import {
  adminContactListSchema,
  adminEventListSchema,
  adminVideoListSchema,
  bulkVideoResultSchema,
  libraryPageSchema,
  libraryShelvesSchema,
  publicVideoSchema,
  showcaseSchema,
  showcaseSummarySchema,
} from '@app/shared/schemas';

// The library at scale (issue 15, decision 020): keyset pages with Link headers, server search,
// showcase pages, the sitemap index, bad input, and the owner's paged list and bulk actions.

const { env, api } = useTestWorld({ api: true });
let jazz: Awaited<ReturnType<typeof createShowcase>>;
let ballet: Awaited<ReturnType<typeof createShowcase>>;

beforeAll(async () => {
  const { db } = env.database;
  jazz = await createShowcase(db, {
    name: 'Wellington Jazz Awards',
    slug: 'wellington-jazz',
    orderPriority: 0,
  });
  ballet = await createShowcase(db, {
    name: 'Dunedin Ballet Eisteddfod',
    slug: 'dunedin-ballet',
    orderPriority: 1,
    showVideosInSearchEngines: true,
  });
  // 130 routines in the jazz showcase, 30 in the ballet one, 3 without a showcase.
  const rows: Array<typeof videos.$inferInsert> = [];
  for (let index = 1; index <= 130; index++) {
    rows.push({
      title: `Routine ${index} - Junior Solo Jazz`,
      description: `Arabesque Academy junior solo ${index}`,
      tags: ['Arabesque Academy', 'Junior', 'Jazz'],
      showcaseId: jazz.id,
      priceCents: index % 10 === 0 ? 0 : 2000,
      awsKey: `videos/jazz-${index}.mp4`,
      createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, index)),
    });
  }
  for (let index = 1; index <= 30; index++) {
    rows.push({
      title: `Routine ${index} - Senior Group Ballet`,
      description: 'Tūī Dance Co senior group',
      tags: ['Tūī Dance Co', 'Senior', 'Ballet'],
      showcaseId: ballet.id,
      priceCents: 1500,
      awsKey: `videos/ballet-${index}.mp4`,
      createdAt: new Date(Date.UTC(2025, 0, 1, 0, 0, index)),
    });
  }
  for (let index = 1; index <= 3; index++) {
    rows.push({
      title: `Studio film ${index}`,
      description: 'Studio session',
      awsKey: `videos/loose-${index}.mp4`,
    });
  }
  await db.insert(videos).values(rows);
});

const nextLink = (link: string | undefined) => /<([^>]+)>; rel="next"/.exec(link ?? '')?.[1];

describe('GET /api/videos, paged', () => {
  it('answers at most `limit` videos and the next page in an RFC 8288 Link header, until the end', async () => {
    const first = await request(api.app).get('/api/videos').expect(200);
    const firstVideos = publicVideoSchema.array().parse(first.body);
    expect(firstVideos).toHaveLength(100);
    const seen = new Set<string>(firstVideos.map((video) => video.id));
    let link = nextLink(first.headers.link);
    let pages = 1;
    while (link) {
      const page = await request(api.app).get(link).expect(200);
      for (const video of publicVideoSchema.array().parse(page.body)) {
        expect(seen.has(video.id)).toBe(false);
        seen.add(video.id);
      }
      link = nextLink(page.headers.link);
      pages += 1;
    }
    expect(pages).toBe(2);
    expect(seen.size).toBe(163);
  });

  it('filters by showcase (id or slug) and price, and pages a search', async () => {
    const bySlug = await request(api.app).get('/api/videos?showcase=dunedin-ballet&limit=500').expect(200);
    expect(bySlug.body).toHaveLength(30);
    const byId = await request(api.app)
      .get(`/api/videos?showcase=${jazz.id}&price=free&limit=500`)
      .expect(200);
    expect(byId.body).toHaveLength(13);
    const searched = await request(api.app).get('/api/videos?q=jazz&limit=50').expect(200);
    expect(searched.body).toHaveLength(50);
    const next = nextLink(searched.headers.link)!;
    expect(next).toContain('q=jazz');
    const rest = await request(api.app).get(next).expect(200);
    expect(rest.body).toHaveLength(50);
    const both = publicVideoSchema.array().parse([...searched.body, ...rest.body]);
    expect(new Set(both.map((video) => video.id)).size).toBe(100);
  });
});

describe('search', () => {
  const search = async (q: string) =>
    libraryPageSchema.parse(
      (await request(api.app).get('/api/library/search').query({ q }).expect(200)).body,
    );

  it('matches prefixes, accents, tags, typos and showcase names, ranked and counted', async () => {
    expect((await search('jaz')).total).toBe(130);
    expect((await search('tui')).total).toBe(30);
    expect((await search('balet')).total).toBe(30);
    expect((await search('arabesque')).total).toBe(130);
    expect((await search('eisteddfod senior')).total).toBe(30);
    const exact = await search('routine 7 jazz');
    expect(exact.videos[0]!.title).toMatch(/^Routine 7\d* - Junior Solo Jazz$/);
    expect((await search('zzzzqqq')).total).toBe(0);
  });

  it('takes search text as data: operators, quotes, LIKE characters and emoji are never an error', async () => {
    for (const q of ['%', '_', "'", '\\', ':*', '&|!()', '😀', "jazz' OR 1=1 --", 'a:* & !b | (c']) {
      const answer = await request(api.app).get('/api/library/search').query({ q });
      expect(answer.status).toBe(200);
      const list = await request(api.app).get('/api/videos').query({ q });
      expect(list.status).toBe(200);
      expect(Array.isArray(list.body)).toBe(true);
    }
  });

  it('answers 200 for any text up to 200 characters (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 200, unit: 'binary' }), async (q) => {
        const response = await request(api.app).get('/api/videos').query({ q, limit: 5 });
        expect(response.status).toBe(200);
        expect(Array.isArray(response.body)).toBe(true);
      }),
      { numRuns: 60 },
    );
  });
});

describe('bad input', () => {
  it.each([
    ['q over 200 characters', `/api/videos?q=${'a'.repeat(201)}`],
    ['limit 0', '/api/videos?limit=0'],
    ['limit 501', '/api/videos?limit=501'],
    ['limit abc', '/api/videos?limit=abc'],
    ['a tampered cursor', '/api/videos?cursor=eyJmIjoieCJ9.bad'],
    ['page -1', '/api/library/search?q=jazz&page=-1'],
    ['page abc', '/api/showcases/wellington-jazz/videos?page=abc'],
    ['an unknown price', '/api/videos?price=cheap'],
  ])('%s: 400 JSON with a message', async (_name, url) => {
    const response = await request(api.app).get(url).expect(400).expect('Content-Type', /json/);
    expect(response.body.message).toEqual(expect.any(String));
  });

  it('refuses a cursor made for another search', async () => {
    const page = await request(api.app).get('/api/videos?q=jazz&limit=10').expect(200);
    const cursor = new URL(nextLink(page.headers.link)!, 'http://x').searchParams.get('cursor')!;
    await request(api.app).get('/api/videos').query({ q: 'ballet', limit: 10, cursor }).expect(400);
    await request(api.app).get('/api/videos').query({ q: 'jazz', limit: 10, cursor }).expect(200);
  });

  it('a page past the end is an empty page, up to the deepest page the pager may link', async () => {
    const page = await request(api.app).get('/api/showcases/wellington-jazz/videos?page=999').expect(200);
    expect(libraryPageSchema.parse(page.body)).toMatchObject({ videos: [], total: 130, page: 999 });
    const results = await request(api.app).get('/api/library/search?q=jazz&page=999').expect(200);
    expect(libraryPageSchema.parse(results.body)).toMatchObject({ videos: [], total: 130 });
    await request(api.app).get('/api/showcases/wellington-jazz/videos?page=99999').expect(400);
  });
});

describe('showcases and their pages', () => {
  it('lists showcases with slugs and video counts, and /api/library with each first row', async () => {
    const { body } = await request(api.app).get('/api/showcases').expect(200);
    expect(showcaseSummarySchema.strict().array().parse(body)).toEqual([
      expect.objectContaining({ slug: 'wellington-jazz', videoCount: 130 }),
      expect.objectContaining({ slug: 'dunedin-ballet', videoCount: 30 }),
    ]);
    const library = await request(api.app).get('/api/library').expect(200);
    expect(
      libraryShelvesSchema
        .parse(library.body)
        .shelves.map((shelf) => [shelf.videoCount, shelf.videos.length]),
    ).toEqual([
      [130, 8],
      [30, 8],
      [3, 3],
    ]);
  });

  it('pages a showcase, and its old slug redirects after a change', async () => {
    const second = await request(api.app).get('/api/showcases/wellington-jazz/videos?page=2').expect(200);
    const secondPage = libraryPageSchema.parse(second.body);
    expect(secondPage).toMatchObject({ page: 2, pageCount: 6, total: 130 });
    expect(secondPage.videos).toHaveLength(24);
    const agent = await adminAgent(api.app);
    await agent.patch(`/api/admin/showcases/${ballet.id}`).send({ slug: 'dunedin-ballet-2025' }).expect(200);
    await agent.patch(`/api/admin/showcases/${jazz.id}`).send({ slug: 'dunedin-ballet-2025' }).expect(400);
    await request(api.app)
      .get('/api/showcases/dunedin-ballet/videos?page=2')
      .expect(301)
      .expect('Location', '/api/showcases/dunedin-ballet-2025/videos?page=2');
    await request(api.app)
      .get('/videos/dunedin-ballet?page=2')
      .expect(301)
      .expect('Location', '/videos/dunedin-ballet-2025?page=2');
    await request(api.app).get('/api/showcases/no-such-showcase/videos').expect(404);
    await agent.patch(`/api/admin/showcases/${ballet.id}`).send({ slug: 'dunedin-ballet' }).expect(200);
  });

  it('makes a readable, unique slug for a new showcase', async () => {
    const agent = await adminAgent(api.app);
    const one = await agent
      .post('/api/admin/showcases')
      .send({ name: 'Nelson Jazz & Tap 2026', description: 'x' })
      .expect(201);
    const two = await agent
      .post('/api/admin/showcases')
      .send({ name: 'Nelson Jazz & Tap 2026', description: 'y' })
      .expect(201);
    const [made, madeAgain] = [one.body, two.body].map((body) => showcaseSchema.strict().parse(body));
    expect([made!.slug, madeAgain!.slug]).toEqual(['nelson-jazz-tap-2026', 'nelson-jazz-tap-2026-2']);
    expect(made!.showVideosInSearchEngines).toBe(false);
    await agent
      .post('/api/admin/showcases')
      .send({ name: 'More', description: 'x', slug: 'more' })
      .expect(400);
  });
});

describe('the owner: paged list and bulk actions', () => {
  it('refuses a visitor', async () => {
    await request(api.app).get('/api/admin/videos').expect(401);
    await request(api.app)
      .post('/api/admin/videos/bulk')
      .send({ ids: ['x'], action: 'delete' })
      .expect(401);
  });

  it('finds a video by search and moves, reprices and deletes in bulk (sold videos are kept)', async () => {
    const agent = await adminAgent(api.app);
    const found = await agent.get('/api/admin/videos?q=routine 17 jazz&sort=relevance').expect(200);
    const best = adminVideoListSchema.parse(found.body).videos[0]!;
    expect(best.title).toBe('Routine 17 - Junior Solo Jazz');
    expect(best.awsKey).toEqual(expect.any(String));

    const page = await agent.get(`/api/admin/videos?showcase=${jazz.id}&pageSize=20&sort=oldest`).expect(200);
    const listed = adminVideoListSchema.parse(page.body);
    expect(listed.total).toBe(130);
    const ids = listed.videos.map((video) => video.id);
    expect(ids).toHaveLength(20);
    const moved = await agent
      .post('/api/admin/videos/bulk')
      .send({ ids, action: 'move', showcaseId: ballet.id })
      .expect(200);
    expect(bulkVideoResultSchema.parse(moved.body)).toEqual({ changed: 20, kept: [] });
    const after = await request(api.app).get('/api/showcases').expect(200);
    expect(
      showcaseSummarySchema
        .array()
        .parse(after.body)
        .find((showcase) => showcase.id === ballet.id)?.videoCount,
    ).toBe(50);

    await agent
      .post('/api/admin/videos/bulk')
      .send({ ids: ids.slice(0, 5), action: 'price', priceCents: 999 })
      .expect(200);
    const priced = await agent.get(`/api/admin/videos?showcase=${ballet.id}&pageSize=200`).expect(200);
    expect(
      adminVideoListSchema.parse(priced.body).videos.filter((video) => video.priceCents === 999),
    ).toHaveLength(5);

    await createPurchase(env.database.db, {
      videoId: ids[0],
      buyerName: 'Aroha',
      buyerEmail: 'aroha@example.nz',
      amountCents: 999,
      currency: 'nzd',
      status: 'paid',
    });
    const deleted = await agent
      .post('/api/admin/videos/bulk')
      .send({ ids: ids.slice(0, 3), action: 'delete' })
      .expect(200);
    expect(bulkVideoResultSchema.parse(deleted.body)).toEqual({ changed: 2, kept: [ids[0]] });

    await agent.post('/api/admin/videos/bulk').send({ ids: [], action: 'delete' }).expect(400);
    await agent
      .post('/api/admin/videos/bulk')
      .send({ ids, action: 'move', showcaseId: 'no-such' })
      .expect(400);
    await agent.get('/api/admin/videos?page=0').expect(400);
  });

  it('pages contacts and events', async () => {
    const agent = await adminAgent(api.app);
    const contacts = await agent.get('/api/admin/contacts?page=1&pageSize=10&q=%25').expect(200);
    expect(adminContactListSchema.parse(contacts.body)).toMatchObject({
      contacts: [],
      page: 1,
      pageSize: 10,
      total: 0,
    });
    const events = await agent.get('/api/admin/events?when=past').expect(200);
    expect(adminEventListSchema.parse(events.body)).toMatchObject({ events: [], total: 0 });
    await agent.get('/api/admin/events?when=someday').expect(400);
  });
});

describe('pages, heads and the sitemap', () => {
  it('sends a showcase page rendered-ready with its canonical, rel prev/next and JSON-LD', async () => {
    const page = await request(api.app).get('/videos/wellington-jazz?page=2').expect(200);
    expect(page.text).toContain(
      '<link rel="canonical" href="http://localhost:3000/videos/wellington-jazz?page=2" />',
    );
    expect(page.text).toMatch(/<link rel="prev" href="[^"]*\/videos\/wellington-jazz" \/>/);
    expect(page.text).toMatch(/<link rel="next" href="[^"]*\/videos\/wellington-jazz\?page=3" \/>/);
    expect(page.text).toContain('"@type":"CollectionPage"');
    expect(page.text).toContain('<title>Wellington Jazz Awards (page 2) | Videos');
    expect(page.text).not.toContain('noindex');
    await request(api.app).get('/videos/no-such-showcase').expect(404);
  });

  it('keeps video pages out of search engines unless their showcase is shown there', async () => {
    const { db } = env.database;
    const hidden = await createVideo(db, { showcaseId: jazz.id });
    const shown = await createVideo(db, { showcaseId: ballet.id });
    const hiddenPage = await request(api.app).get(`/video/${hidden.id}/purchase`).expect(200);
    expect(hiddenPage.text).toContain('<meta name="robots" content="noindex" />');
    const shownPage = await request(api.app).get(`/video/${shown.id}/purchase`).expect(200);
    expect(shownPage.text).not.toContain('noindex');

    const index = await request(api.app).get('/sitemap.xml').expect(200);
    expect(index.text).toContain('<sitemapindex');
    expect(index.text).toContain('/sitemaps/pages.xml');
    expect(index.text).toContain('/sitemaps/videos-1.xml');
    const pages = await request(api.app).get('/sitemaps/pages.xml').expect(200);
    expect(pages.text).toContain('/videos/wellington-jazz</loc>');
    expect(pages.text).toContain('/videos/more</loc>');
    const videoUrls = await request(api.app).get('/sitemaps/videos-1.xml').expect(200);
    expect(videoUrls.text).toContain(`/video/${shown.id}/purchase`);
    expect(videoUrls.text).not.toContain(hidden.id);
    await request(api.app).get('/sitemaps/videos-2.xml').expect(404);
  });
});
