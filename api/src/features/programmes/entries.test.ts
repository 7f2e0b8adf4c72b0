import { eq, sql } from 'drizzle-orm';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { videos } from '@app/shared/db';
import { findEntry } from '@app/shared/programme';
import { adminEntriesSchema, programmeSearchSchema } from '@app/shared/schemas';
import { programmeCsv } from '../../../../scripts/seed/programme.ts';
import { createPurchase, createShowcase, createVideo } from '../../../../test/support/factories.ts';
import { useTestWorld } from '../../../../test/support/world.ts';
import { pageHead } from '../../site/seo.ts';
import { importProgramme } from './programme-import.ts';

// The owner's entries screen (decision 032), and what keeps dancers' pages out of search engines.

const { env, api, agent } = useTestWorld({ admin: true });
const origin = 'http://localhost:3000';

async function programme() {
  const { db } = env.database;
  const showcase = await createShowcase(db, { dancerNames: 'full' });
  const rows = [
    {
      entryNumber: '1',
      section: 'Junior Solo Jazz',
      title: 'Firefly',
      dancers: ['Zoë Müller'],
      studio: 'Studio 42',
    },
    {
      entryNumber: '2',
      section: 'Junior Duo Tap',
      title: '=cmd|calc',
      dancers: ['Zoe Muller', 'Renée Clarke'],
      studio: 'Studio 42',
    },
    {
      entryNumber: '3',
      section: 'Junior Solo Tap',
      title: 'Rain',
      dancers: ['Zoey Mueller'],
      studio: 'Studio 4',
    },
  ];
  await importProgramme(db, showcase.id, Buffer.from(programmeCsv(rows)), {});
  return showcase;
}

const entries = async (showcaseId: string, query = '') =>
  adminEntriesSchema.parse(
    (await agent.get(`/api/admin/showcases/${showcaseId}/entries${query}`).expect(200)).body,
  );

describe('the entries screen', () => {
  it('edits an entry, links videos (their text follows the entry unless the owner wrote her own), filters and exports', async () => {
    const { db } = env.database;
    const showcase = await programme();
    const one = (await findEntry(db, showcase.id, '1'))!;
    const linked = await createVideo(db, { showcaseId: showcase.id, priceCents: 1500 });
    const own = await createVideo(db, {
      showcaseId: showcase.id,
      entryId: one.id,
      ownText: true,
      title: 'My words',
    });
    await agent
      .post('/api/admin/entries/link-video')
      .set('Origin', origin)
      .send({ videoId: linked.id, entryId: one.id })
      .expect(200);
    await agent
      .put(`/api/admin/entries/${one.id}`)
      .set('Origin', origin)
      .send({ title: 'Firefly (final)', studio: 'Centre Stage', dancers: ['Zoë Müller', 'Mia Chen'] })
      .expect(200);
    const [after] = await db.select().from(videos).where(eq(videos.id, linked.id));
    expect(after).toMatchObject({
      title: 'Item 1: Firefly (final)',
      description: 'Junior Solo Jazz · Centre Stage',
      tags: ['Junior Solo Jazz', 'Centre Stage'],
    });
    const [kept] = await db.select().from(videos).where(eq(videos.id, own.id));
    expect(kept!.title).toBe('My words');

    const other = await createShowcase(db);
    const stranger = await createVideo(db, { showcaseId: other.id });
    await agent
      .post('/api/admin/entries/link-video')
      .set('Origin', origin)
      .send({ videoId: stranger.id, entryId: one.id })
      .expect(400);

    await createPurchase(db, { videoId: linked.id, status: 'paid' });
    expect((await entries(showcase.id, '?filter=sold')).items.map((entry) => entry.entryNumber)).toEqual([
      '1',
    ]);
    expect(
      (await entries(showcase.id, '?filter=without-video')).items.map((entry) => entry.entryNumber),
    ).toEqual(['2', '3']);
    expect((await entries(showcase.id, '?q=renee')).items.map((entry) => entry.entryNumber)).toEqual(['2']);
    expect((await entries(showcase.id, '?q=zoe')).items.map((entry) => entry.entryNumber)).toEqual([
      '1',
      '2',
      '3',
    ]);
    expect((await entries(showcase.id, '?q=%2347')).items).toEqual([]);

    const csv = await agent.get(`/api/admin/showcases/${showcase.id}/entries.csv`).expect(200);
    expect(csv.text).toContain(`"'=cmd|calc"`);
    expect(csv.text).not.toMatch(/(^|,)"=/m);
  });

  it('merges two spellings of one dancer and removes a dancer everywhere at once', async () => {
    const showcase = await programme();
    const list = await entries(showcase.id);
    const zoe = list.items[0]!.dancers[0]!;
    const zoey = list.items[2]!.dancers[0]!;
    expect([zoe.name, zoey.name]).toEqual(['Zoë Müller', 'Zoey Mueller']);
    await agent
      .post(`/api/admin/showcases/${showcase.id}/dancers/merge`)
      .set('Origin', origin)
      .send({ keepId: zoe.id, mergeId: zoey.id })
      .expect(200);
    const merged = await entries(showcase.id);
    expect(merged.items.map((entry) => entry.dancers.map((dancer) => dancer.name))).toEqual([
      ['Zoë Müller'],
      ['Zoë Müller', 'Renée Clarke'],
      ['Zoë Müller'],
    ]);
    const before = programmeSearchSchema.parse(
      (await request(api.app).get('/api/programme/search?q=zoe muller').expect(200)).body,
    );
    const ours = (answer: typeof before) =>
      answer.groups.filter((group) => group.showcase.id === showcase.id);
    expect(ours(before).flatMap((group) => group.dancers)).toMatchObject([
      { name: 'Zoë Müller', routineCount: 3 },
    ]);

    await agent.delete(`/api/admin/dancers/${zoe.id}`).set('Origin', origin).expect(200);
    const after = await entries(showcase.id);
    expect(after.items.map((entry) => [entry.title, entry.dancers.map((dancer) => dancer.name)])).toEqual([
      ['Firefly', []],
      ['=cmd|calc', ['Renée Clarke']],
      ['Rain', []],
    ]);
    const gone = programmeSearchSchema.parse(
      (await request(api.app).get('/api/programme/search?q=zoe muller').expect(200)).body,
    );
    expect(ours(gone).flatMap((group) => group.dancers)).toEqual([]);
    await request(api.app).get(`/api/dancers/${zoe.id}`).expect(404);
    await agent.delete(`/api/admin/dancers/${zoe.id}`).set('Origin', origin).expect(404);
    await request(api.app).delete(`/api/admin/dancers/${zoey.id}`).set('Origin', origin).expect(401);
    await request(api.app).get(`/api/admin/showcases/${showcase.id}/entries`).expect(401);
  });

  it('keeps dancer and studio pages out of search engines and every sitemap', async () => {
    const { db } = env.database;
    const showcase = await programme();
    await db.execute(
      sql`update showcases set show_videos_in_search_engines = true where id = ${showcase.id}`,
    );
    expect(pageHead('/dancers/abc', env.config)).toMatchObject({ status: 200, noindex: true, jsonLd: [] });
    expect(pageHead('/studios/abc', env.config)).toMatchObject({ status: 200, noindex: true });
    expect(pageHead('/dancers/abc', env.config).title).not.toMatch(/Zo/);
    const index = await request(api.app).get('/sitemap.xml').expect(200);
    const files = [...index.text.matchAll(/<loc>[^<]*(\/sitemaps\/[^<]+)<\/loc>/g)].map((match) => match[1]!);
    for (const file of files) {
      const body = (await request(api.app).get(file).expect(200)).text;
      expect(body).not.toMatch(/dancers|studios|Zo|Müller/);
    }
    expect(files.length).toBeGreaterThan(0);
  });

  it("makes the competition's QR code as PNG and SVG for the owner only", async () => {
    const showcase = await createShowcase(env.database.db, { slug: 'qr-champs-2027' });
    const png = await agent.get(`/api/admin/showcases/${showcase.id}/qr.png`).buffer(true).expect(200);
    expect(png.headers['content-type']).toBe('image/png');
    expect(png.headers['content-disposition']).toContain('qr-champs-2027-qr.png');
    expect((png.body as Buffer).subarray(1, 4).toString()).toBe('PNG');
    const svg = await agent.get(`/api/admin/showcases/${showcase.id}/qr.svg`).buffer(true).expect(200);
    expect(svg.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(String(svg.body ?? svg.text)).toMatch(/^<svg[^>]*viewBox/);
    await agent.get('/api/admin/showcases/nope/qr.png').expect(404);
    await request(api.app).get(`/api/admin/showcases/${showcase.id}/qr.svg`).expect(401);
  });
});
