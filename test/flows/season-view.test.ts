import { eq, sql } from 'drizzle-orm';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { searchMisses, videos } from '@app/shared/db';
import { seasonViewSchema, type SeasonView } from '@app/shared/schemas';
import { writeProgramme } from '../../scripts/seed/programme.ts';
import {
  MAX_MISSES_A_DAY,
  searchMissesWritten,
} from '../../api/src/features/search-misses/search-miss-log.ts';
import { retentionSweep } from '../../worker/src/jobs/retention-sweep.ts';
import { createPurchase, createShowcase, createVideo } from '../support/factories.ts';
import { drain } from '../support/worker.ts';
import { useTestWorld } from '../support/world.ts';

// The owner's season view (issue 30, decision 034): visits recorded by the api and counted by the
// worker, purchases, searches that found nothing logged by the api without who searched, and the
// retention sweep that deletes those searches after 90 days.

const { env, api, agent, worker } = useTestWorld({ admin: true, worker: true });

const DAY = 24 * 3600_000;
const nzDay = (date: Date) => new Intl.DateTimeFormat('en-CA', { timeZone: 'Pacific/Auckland' }).format(date);

const season = async (showcaseId: string): Promise<SeasonView> =>
  seasonViewSchema.parse((await agent.get(`/api/admin/showcases/${showcaseId}/season`).expect(200)).body);

async function competition() {
  const { db } = env.database;
  const showcase = await createShowcase(db, { name: 'Nationals 2026', dancerNames: 'full' });
  const entry = await writeProgramme(db, showcase.id, [
    {
      entryNumber: '1',
      section: 'Junior Solo Jazz',
      title: 'Firefly',
      dancers: ['Aroha Smith'],
      studio: 'Studio 42',
    },
    {
      entryNumber: '2',
      section: 'Junior Duo Tap',
      title: 'Rain',
      dancers: ['Mere Tane', 'Zoë Müller'],
      studio: 'Studio 42',
    },
    {
      entryNumber: '3',
      section: 'Senior Solo Lyrical',
      title: 'Tides',
      dancers: ['Ana Lee'],
      studio: 'Dance Co',
    },
    {
      entryNumber: '4',
      section: 'Senior Troupe',
      title: 'Storm',
      dancers: ['Kiri Hale'],
      studio: 'Dance Co',
    },
  ]);
  const video = (number: string, overrides: Parameters<typeof createVideo>[1]) =>
    createVideo(db, { showcaseId: showcase.id, entryId: entry.get(number) ?? null, ...overrides });
  const firefly = await video('1', { title: 'Item 1: Firefly', priceCents: 1500, processingState: 'ready' });
  const rain = await video('2', { title: 'Item 2: Rain', priceCents: 2000, processingState: 'ready' });
  await video('2', { title: 'Item 2: Rain (side)', priceCents: 2000, processingState: 'processing' });
  const broken = await video('none', {
    title: 'C0099',
    processingState: 'failed',
    processingError: 'Not a video file',
    published: false,
  });
  return { showcase, entry, firefly, rain, broken };
}

describe('the season view', () => {
  it('counts entries, videos, sales per day, the path from visits to purchases, top routines and failed searches', async () => {
    const { db } = env.database;
    const { showcase, entry, firefly, rain, broken } = await competition();
    // Another competition's sale and searches are not this one's.
    const other = await createShowcase(db);
    const elsewhere = await createVideo(db, { showcaseId: other.id, priceCents: 900 });
    await createPurchase(db, { videoId: elsewhere.id, amountCents: 900, status: 'paid', paidAt: new Date() });

    const now = Date.now();
    await createPurchase(db, {
      videoId: firefly.id,
      amountCents: 1500,
      status: 'paid',
      paidAt: new Date(now),
    });
    // A cart of two routines, two days ago: each item is its video's share.
    await createPurchase(db, {
      videoIds: [firefly.id, rain.id],
      amountCents: 3500,
      status: 'paid',
      paidAt: new Date(now - 2 * DAY),
    });
    await createPurchase(db, { videoId: rain.id, amountCents: 2000 }); // started, never paid
    await createPurchase(db, {
      videoId: firefly.id,
      amountCents: 1500,
      status: 'refunded',
      paidAt: new Date(now),
    });
    await createPurchase(db, { bundleShowcaseIds: [showcase.id], status: 'expired' });

    // Page visits through the api: the same address twice in the hour is one visit.
    for (const id of [firefly.id, firefly.id, rain.id])
      await request(api.app).post(`/api/videos/${id}/visit`).expect(204);
    // A hidden video's page does not exist for visitors.
    await request(api.app).post(`/api/videos/${broken.id}/visit`).expect(404);
    await drain(worker.producer, 'count-video-stat');
    // Earlier visits, as the counter holds them.
    await db
      .update(videos)
      .set({ visits: sql`${videos.visits} + 9` })
      .where(eq(videos.id, firefly.id));

    // Searches: a misspelt name finds no video (names are not in the library's text) and only a guess
    // of the programme's, twice, in two spellings that are the same words; once within the showcase's
    // page; and a name nothing knows, across the site and within this competition (its QR code's
    // page). A search that finds a video, or that the programme answers as typed (her name, an entry
    // number), found something and is not logged; nor is "find your dancer" alone, which the library
    // page asks beside its own search.
    const search = (path: string) => request(api.app).get(path).expect(200);
    await search('/api/library/search?q=Arohaa%20Smithh');
    await search('/api/library/search?q=AROHAA%20%20sm%C3%ADthh!');
    await search(`/api/library/search?q=arohaa+smithh&showcase=${showcase.slug}`);
    await search('/api/library/search?q=Zzyzx%20Quill');
    await search(`/api/library/search?q=Qwxyz%20Vran&showcase=${showcase.slug}`);
    await search('/api/library/search?q=Firefly');
    await search('/api/library/search?q=aroha+smith');
    await search(`/api/library/search?q=%233&showcase=${showcase.slug}`);
    await search(`/api/library/search?q=Zo%C3%AB&showcase=${showcase.slug}`);
    await search('/api/programme/search?q=Pqxzv%20Wrenn');
    await search('/api/library/search?q=Arohaa%20Smithh&page=2');
    // The library's page as the api renders it logs the same way.
    await request(api.app).get('/videos?q=arohaa+smithh');
    await search(`/api/library/search?q=nothing+here&showcase=${other.slug}`);

    // Entry 4 was not filmed (marked in a bulk upload); entry 1, marked too, got its video after all.
    const { body: batch } = await agent
      .post(`/api/admin/showcases/${showcase.id}/upload-batches`)
      .send({})
      .expect(201);
    for (const number of ['4', '1'])
      await agent
        .put(`/api/admin/upload-batches/${batch.id}/not-filmed/${entry.get(number)}`)
        .send({})
        .expect(204);

    await expect
      .poll(async () =>
        (await season(showcase.id)).searchMisses.map(({ query, count }) => ({ query, count })),
      )
      .toEqual([
        { query: 'arohaa smithh', count: 4 },
        { query: 'qwxyz vran', count: 1 },
        { query: 'zzyzx quill', count: 1 },
      ]);
    const view = await season(showcase.id);
    const today = nzDay(new Date(now));
    expect(view).toEqual({
      showcase: { id: showcase.id, name: 'Nationals 2026', slug: showcase.slug },
      entries: { total: 4, withVideo: 2, withoutVideo: 1, notFilmed: 1 },
      videos: {
        total: 4,
        ready: 2,
        processing: 1,
        failed: 1,
        withoutEntry: 1,
        failedVideos: [{ id: broken.id, title: 'C0099', reason: 'Not a video file' }],
      },
      sales: { purchases: 2, videosSold: 3, revenueCents: 5000 },
      salesByDay: [
        { day: nzDay(new Date(now - 2 * DAY)), purchases: 1, revenueCents: 3500 },
        { day: nzDay(new Date(now - DAY)), purchases: 0, revenueCents: 0 },
        { day: today, purchases: 1, revenueCents: 1500 },
      ],
      funnel: { visits: 11, checkouts: 5, paid: 2 },
      topRoutines: [
        {
          videoId: firefly.id,
          title: 'Item 1: Firefly',
          entryId: entry.get('1'),
          entryNumber: '1',
          visits: 10,
          sold: 2,
          revenueCents: 3000,
          conversion: 0.2,
        },
        {
          videoId: rain.id,
          title: 'Item 2: Rain',
          entryId: entry.get('2'),
          entryNumber: '2',
          visits: 1,
          sold: 1,
          revenueCents: 2000,
          conversion: 1,
        },
        // Unsold: in programme order, videos without an entry last.
        expect.objectContaining({ title: 'Item 2: Rain (side)', sold: 0 }),
        expect.objectContaining({ title: 'C0099', sold: 0, visits: 0, conversion: null }),
      ],
      searchMisses: [
        {
          query: 'arohaa smithh',
          count: 4,
          lastDay: today,
          library: 4,
          programme: 0,
          withinShowcase: true,
          // The misspelt name is Aroha Smith's: her entry is the one to check.
          suggestion: {
            entryId: entry.get('1'),
            entryNumber: '1',
            label: 'Aroha Smith',
            search: 'Aroha Smith',
          },
        },
        {
          query: 'qwxyz vran',
          count: 1,
          lastDay: today,
          library: 1,
          programme: 0,
          withinShowcase: true,
          suggestion: null,
        },
        {
          query: 'zzyzx quill',
          count: 1,
          lastDay: today,
          library: 1,
          programme: 0,
          withinShowcase: false,
          suggestion: null,
        },
      ],
      searchMissDays: 90,
    });

    // What is kept: the words, the day, a count; nothing about who searched.
    const { rows } = await db.execute(sql`select * from search_misses order by query, source`);
    expect(Object.keys(rows[0]!).sort()).toEqual(['count', 'day', 'query', 'showcase_id', 'source']);
    expect(rows.map((row) => row.query)).toEqual([
      'arohaa smithh',
      'arohaa smithh',
      'nothing here',
      'qwxyz vran',
      'zzyzx quill',
    ]);

    // The owner's only: a visitor is refused, and an unknown showcase is a 404.
    await request(api.app).get(`/api/admin/showcases/${showcase.id}/season`).expect(401);
    await agent.get('/api/admin/showcases/no-such-showcase/season').expect(404);
  });

  it('answers a search whose log cannot be written, and counts nothing on an empty showcase', async () => {
    const { db } = env.database;
    const showcase = await createShowcase(db);
    await db.execute(sql`alter table search_misses rename to search_misses_away`);
    try {
      const answer = await request(api.app).get('/api/library/search?q=lost+words').expect(200);
      expect(answer.body.total).toBe(0);
      await request(api.app).get('/api/programme/search?q=lost+words').expect(200);
      // The write went (and failed) after the answers.
      await searchMissesWritten(api.deps.db);
    } finally {
      await db.execute(sql`alter table search_misses_away rename to search_misses`);
    }
    // Lost, not late: nothing is written once the table is back.
    const { rows } = await db.execute(sql`select query from search_misses where query = 'lost words'`);
    expect(rows).toEqual([]);
    const view = await season(showcase.id);
    expect(view.entries).toEqual({ total: 0, withVideo: 0, withoutVideo: 0, notFilmed: 0 });
    expect(view.sales).toEqual({ purchases: 0, videosSold: 0, revenueCents: 0 });
    expect(view.salesByDay).toEqual([]);
    expect(view.funnel).toEqual({ visits: 0, checkouts: 0, paid: 0 });
  });

  it('keeps counting known searches but adds no new ones once a day holds its most', async () => {
    const { db } = env.database;
    await db.delete(searchMisses);
    await db.execute(sql`
      insert into search_misses (day, source, query, count)
      select (now() at time zone 'Pacific/Auckland')::date, 'library', 'made up ' || i, 1
      from generate_series(1, ${MAX_MISSES_A_DAY}::int) i`);
    await request(api.app).get('/api/library/search?q=made+up+7').expect(200);
    await request(api.app).get('/api/library/search?q=one+more+new+search').expect(200);
    await searchMissesWritten(api.deps.db);
    const { rows } = await db.execute<{ lines: number; counted: number }>(sql`
      select count(*)::int as lines, sum(count)::int as counted from search_misses`);
    expect(rows[0]).toEqual({ lines: MAX_MISSES_A_DAY, counted: MAX_MISSES_A_DAY + 1 });
  });

  it('deletes searches after 90 days in the retention sweep, and a second sweep deletes nothing', async () => {
    const { db } = env.database;
    await db.delete(searchMisses);
    const dayAgo = (days: number) => nzDay(new Date(Date.now() - days * DAY));
    await db.insert(searchMisses).values([
      { day: dayAgo(95), source: 'library', query: 'aroha smith', count: 4 },
      { day: dayAgo(92), source: 'programme', query: 'mere tane', count: 1 },
      { day: dayAgo(85), source: 'library', query: 'ana lee', count: 2 },
      { day: dayAgo(0), source: 'library', query: 'kiri hale', count: 1 },
    ]);
    expect(await retentionSweep({}, worker.context as never)).toEqual({
      status: 'done',
      deleted: { 'searches that found nothing': 2 },
    });
    expect(await retentionSweep({}, worker.context as never)).toBe('skipped');
    const kept = await db
      .select({ query: searchMisses.query })
      .from(searchMisses)
      .orderBy(searchMisses.query);
    expect(kept.map((row) => row.query)).toEqual(['ana lee', 'kiri hale']);
  });
});
