import { eq, sql } from 'drizzle-orm';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { purchaseItems, showcases } from '@app/shared/db';
import { hashPassword } from '@app/shared/password';
import { findEntry } from '@app/shared/programme';
import {
  cartCheckResponseSchema,
  performerPageSchema,
  programmeSearchSchema,
  type RoutineBundleRule,
} from '@app/shared/schemas';
import { programmeCsv, type ProgrammeRow } from '../../../../scripts/seed/programme.ts';
import { createShowcase, createVideo } from '../../../../test/support/factories.ts';
import { useTestWorld } from '../../../../test/support/world.ts';
import { importProgramme } from './programme-import.ts';

// "Find your dancer" (decision 032): entry numbers, names without macrons or with a typo, studios and
// section words; dancer and studio pages with their server-priced offer; the limit on name searches.

const { env, api, stripe } = useTestWorld({ api: true, stripe: true });

let address = 0;
const from = () => `203.0.113.${++address % 250}`;
const search = (q: string, ip = from()) =>
  request(api.app).get('/api/programme/search').query({ q }).set('X-Forwarded-For', ip);

const row = (
  entryNumber: string,
  dancers: string[],
  studio: string,
  section = 'Open Solo Jazz',
  title = 'Routine',
) => ({ entryNumber, section, title, dancers, studio }) satisfies ProgrammeRow;

async function competition(
  name: string,
  rows: ProgrammeRow[],
  settings: Partial<typeof showcases.$inferInsert> = {},
) {
  const showcase = await createShowcase(env.database.db, { name, ...settings });
  await importProgramme(env.database.db, showcase.id, Buffer.from(programmeCsv(rows)), {});
  return showcase;
}

const rule: RoutineBundleRule = { kind: 'percent', percentOff: 25 };

describe('find your dancer', () => {
  it('finds Māia by "maia ngata" (shown as Māia N.), ranks exact entry numbers and whole studio names first', async () => {
    const older = await competition('Autumn Champs 2026', [
      row('47', ['Māia Ngata'], 'Te Kōwhai Dance Studio', 'Junior Solo Jazz 10 & Under', 'Firefly'),
    ]);
    await env.database.db.execute(
      sql`update showcases set created_at = now() - interval '1 year' where id = ${older.id}`,
    );
    const rows = [
      row('47', ['Māia Ngata'], 'Te Kōwhai Dance Studio', 'Junior Solo Jazz 10 & Under', 'Firefly'),
      row('47b', ['Māia Ngata'], 'Te Kōwhai Dance Studio', 'Junior Solo Jazz 10 & Under', 'Firefly (re-run)'),
      row('147', ['Mia Chen'], 'Studio 4', 'Senior Solo Tap'),
      row('4711', ['Aroha Ngata'], 'Studio 42', 'Senior Troupe Hip Hop'),
      row('12', ['Māia Ngata', 'Aroha Ngata'], 'Studio 42', 'Junior Duo Jazz 10 & Under', 'Paper Boats'),
      ...Array.from({ length: 30 }, (_, at) =>
        row(String(200 + at), [`Dancer ${at} Studioson`], 'Te Kōwhai Dance Studio', 'Open Studio Jazz'),
      ),
    ];
    const current = await competition('Southern Champs 2027', rows);

    for (const q of ['maia ngata', 'Māia Ngata', 'maia ngatta']) {
      const answer = programmeSearchSchema.parse((await search(q).expect(200)).body);
      expect(answer.groups.map((group) => group.showcase.name)).toEqual([
        'Southern Champs 2027',
        'Autumn Champs 2026',
      ]);
      expect(answer.groups[0]!.dancers[0]).toMatchObject({ name: 'Māia N.', routineCount: 3 });
    }

    for (const q of ['#47', '47', 'item 47', 'Item #47']) {
      const answer = programmeSearchSchema.parse((await search(q).expect(200)).body);
      const numbers = answer.groups.map((group) => group.routines.map((routine) => routine.entryNumber));
      expect(numbers, q).toEqual([['47', '47b'], ['47']]);
      expect(answer.groups[0]!.routines[0]!.dancers).toEqual([{ id: expect.any(String), name: 'Māia N.' }]);
    }
    const only = programmeSearchSchema.parse((await search('47b').expect(200)).body);
    expect(only.groups.flatMap((group) => group.routines.map((routine) => routine.entryNumber))).toEqual([
      '47b',
    ]);

    // As it is typed: every word as the start of a name's word, in any order.
    const typing = programmeSearchSchema.parse((await search('mia ch').expect(200)).body);
    expect(typing.groups[0]!.dancers.map((dancer) => dancer.name)).toEqual(['Mia C.']);
    const surname = programmeSearchSchema.parse((await search('ngata').expect(200)).body);
    expect(surname.groups[0]!.dancers.map((dancer) => dancer.name).sort()).toEqual(['Aroha N.', 'Māia N.']);

    const studio = programmeSearchSchema.parse((await search('studio 42').expect(200)).body);
    expect(studio.groups[0]!.studios[0]).toMatchObject({ name: 'Studio 42', routineCount: 2 });

    const section = programmeSearchSchema.parse((await search('junior jazz').expect(200)).body);
    expect(section.groups.map((group) => group.routines.map((routine) => routine.entryNumber))).toEqual([
      ['12', '47', '47b'],
      ['47'],
    ]);
    // Section and title words as they are typed (decision 042): each typed word starts a word of the
    // entry's section or title, in any order; a word's middle ("azz") does not count.
    const sectionNumbers = async (q: string) =>
      programmeSearchSchema
        .parse((await search(q).expect(200)).body)
        .groups.map((group) => group.routines.map((routine) => routine.entryNumber));
    expect(await sectionNumbers('jazz juni')).toEqual([['12', '47', '47b'], ['47']]);
    expect(await sectionNumbers('paper boa')).toEqual([['12']]);
    expect(await sectionNumbers('firefly re-run')).toEqual([['47b']]);
    expect(await sectionNumbers('senior troupe hip')).toEqual([['4711']]);
    expect(await sectionNumbers('junior azz')).toEqual([]);

    // Nothing to find, or too much typed: a calm empty answer, never an error.
    for (const q of ['!!!', '#', 'x'.repeat(5_000), '99999', 'zzzzqqq'])
      expect(programmeSearchSchema.parse((await search(q).expect(200)).body)).toEqual({ groups: [] });
    await search('x'.repeat(5_001)).expect(400);
    // Answered ahead of Express's layers (decision 039), with what every answer carries.
    const answer = await search('maia ngata').expect(200);
    expect(answer.headers).toMatchObject({
      'cache-control': 'private, no-store',
      'x-robots-tag': 'noindex',
      'x-content-type-options': 'nosniff',
      'content-type': 'application/json; charset=utf-8',
    });
    expect(answer.headers['content-security-policy']).toContain("default-src 'self'");
    expect(answer.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const twice = await request(api.app).get('/api/programme/search?q=47&q=48').expect(400);
    expect(twice.body).toMatchObject({
      code: 'invalid_input',
      message: expect.stringMatching(/^Invalid request: q/),
    });
    // HEAD answers as GET does, without the body (as Express answers HEAD for its GET routes).
    const head = await request(api.app).head('/api/programme/search').query({ q: 'maia ngata' }).expect(200);
    expect(head.headers).toMatchObject({
      'cache-control': 'private, no-store',
      'content-length': answer.headers['content-length'],
    });
    expect(head.text).toBeUndefined();
    await request(api.app).post('/api/programme/search').expect(404);
    await request(api.app).get('/api/programme/searches?q=47').expect(404);

    // With the library's showcase filter (where a competition's QR code leads), by slug or id: that
    // competition's programme only, though a newer one holds the same number and name.
    const scoped = (q: string, showcase: string) =>
      request(api.app).get('/api/programme/search').query({ q, showcase }).set('X-Forwarded-For', from());
    for (const showcase of [older.slug, older.id]) {
      for (const q of ['47', 'maia ngata']) {
        const answer = programmeSearchSchema.parse((await scoped(q, showcase).expect(200)).body);
        expect(
          answer.groups.map((group) => group.showcase.name),
          q,
        ).toEqual(['Autumn Champs 2026']);
      }
    }
    const number = programmeSearchSchema.parse((await scoped('47', current.slug).expect(200)).body);
    expect(number.groups.map((group) => group.routines.map((routine) => routine.entryNumber))).toEqual([
      ['47', '47b'],
    ]);
    expect(programmeSearchSchema.parse((await scoped('47', 'more').expect(200)).body)).toEqual({
      groups: [],
    });
    await scoped('47', 'x'.repeat(101)).expect(400);
  });

  it('answers a hidden name only to the whole name, and then without the name', async () => {
    await competition('Hidden Names Cup', [row('5', ['Wikitōria Kāretu'], 'Riverside Jazz & Tap')], {
      dancerNames: 'hidden',
    });
    const part = programmeSearchSchema.parse((await search('wikitoria').expect(200)).body);
    expect(part.groups.flatMap((group) => group.dancers)).toEqual([]);
    const whole = programmeSearchSchema.parse((await search('wikitoria karetu').expect(200)).body);
    const [dancer] = whole.groups.flatMap((group) => group.dancers);
    expect(dancer).toMatchObject({ name: null, routineCount: 1 });
    const page = performerPageSchema.parse(
      (await request(api.app).get(`/api/dancers/${dancer!.id}`).expect(200)).body,
    );
    expect(page.name).toBeNull();
    expect(page.routines[0]!.dancers).toEqual([]);
    expect(JSON.stringify(page)).not.toMatch(/Wikit/);
  });

  it("prices the dancer's routines on the server and sells them in one checkout", async () => {
    const { db } = env.database;
    const showcase = await competition(
      'Buy All Champs',
      [
        row('1', ['Tūī Parata'], 'Studio 42'),
        row('2', ['Tūī Parata', 'Mia Chen'], 'Studio 42'),
        row('3', ['Tūī Parata'], 'Studio 42'),
        row('4', ['Mia Chen'], 'Studio 42'),
      ],
      { routineBundleRule: rule, dancerNames: 'full' },
    );
    for (const [number, price] of [
      ['1', 2000],
      ['2', 2000],
      ['3', 2000],
      ['4', 1500],
    ] as const) {
      const entry = (await findEntry(db, showcase.id, number))!;
      await createVideo(db, {
        showcaseId: showcase.id,
        entryId: entry.id,
        priceCents: price,
        ownText: false,
      });
    }
    const [dancer] = programmeSearchSchema.parse((await search('tui parata').expect(200)).body).groups[0]!
      .dancers;
    const pageAnswer = await request(api.app).get(`/api/dancers/${dancer!.id}`).expect(200);
    expect(pageAnswer.headers['x-robots-tag']).toBe('noindex');
    const page = performerPageSchema.parse(pageAnswer.body);
    expect(page).toMatchObject({
      name: 'Tūī Parata',
      offer: { routineCount: 3, separateCents: 6000, priceCents: 4500 },
    });
    expect(page.routines.map((routine) => routine.entryNumber)).toEqual(['1', '2', '3']);

    // The price the browser states is never charged: a wrong one is a 409, the server's is charged.
    const check = await request(api.app)
      .post('/api/cart/check')
      .send({ items: [{ dancerId: dancer!.id }] })
      .expect(200);
    expect(cartCheckResponseSchema.parse(check.body)).toMatchObject({
      totalCents: 4500,
      items: [{ dancerId: dancer!.id, title: "All of Tūī Parata's routines (3)", videoCount: 3 }],
    });
    const buyer = { customerName: 'Hine Parata', customerEmail: 'hine@example.nz' };
    const wrong = await request(api.app)
      .post('/api/cart/checkout')
      .set('X-Forwarded-For', from())
      .send({ ...buyer, items: [{ dancerId: dancer!.id, expectedPriceCents: 100 }] })
      .expect(409);
    expect(wrong.body.details.problems[0]).toMatchObject({ reason: 'repriced', priceCents: 4500 });
    await request(api.app)
      .post('/api/cart/checkout')
      .set('X-Forwarded-For', from())
      .send({ ...buyer, items: [{ dancerId: dancer!.id, priceCents: 100 }] })
      .expect(400);
    // A video of the offer bought singly beside it would be sold twice.
    await request(api.app)
      .post('/api/cart/checkout')
      .set('X-Forwarded-For', from())
      .send({ ...buyer, items: [{ dancerId: dancer!.id }, { videoId: page.offer!.videoIds[0] }] })
      .expect(409);

    const sold = await request(api.app)
      .post('/api/cart/checkout')
      .set('X-Forwarded-For', from())
      .send({ ...buyer, items: [{ dancerId: dancer!.id, expectedPriceCents: 4500 }] })
      .expect(201);
    expect(stripe.created.at(-1)).toMatchObject({
      'line_items[0][price_data][unit_amount]': '4500',
      'line_items[0][price_data][product_data][name]': "All of Tūī Parata's routines (3)",
    });
    expect(stripe.created.at(-1)!['line_items[1][price_data][unit_amount]']).toBeUndefined();
    const items = await db
      .select({ videoId: purchaseItems.videoId, amountCents: purchaseItems.amountCents })
      .from(purchaseItems)
      .innerJoin(sql`purchases p`, sql`p.id = ${purchaseItems.purchaseId}`)
      .where(sql`p.checkout_session_id = ${sold.body.sessionId}`);
    expect(items.map((item) => item.videoId).sort()).toEqual([...page.offer!.videoIds].sort());
    expect(items.reduce((sum, item) => sum + item.amountCents, 0)).toBe(4500);

    // The studio page offers the studio's routines under the same rule.
    const studio = programmeSearchSchema.parse((await search('studio 42').expect(200)).body).groups[0]!
      .studios[0]!;
    const studioPage = performerPageSchema.parse(
      (await request(api.app).get(`/api/studios/${studio.id}`).expect(200)).body,
    );
    expect(studioPage.offer).toMatchObject({ routineCount: 4, separateCents: 7500, priceCents: 5625 });

    // No rule: no offer, and the cart refuses one.
    await db.update(showcases).set({ routineBundleRule: null }).where(eq(showcases.id, showcase.id));
    expect(
      performerPageSchema.parse((await request(api.app).get(`/api/dancers/${dancer!.id}`).expect(200)).body)
        .offer,
    ).toBeNull();
    await request(api.app)
      .post('/api/cart/check')
      .send({ items: [{ dancerId: dancer!.id }] })
      .expect(200);
    await request(api.app).get('/api/dancers/not-a-dancer').expect(404);
  });

  it('shows no protected frame nor failed video on a dancer page or in search, and sells only what can be delivered', async () => {
    // Issue 28 items 1 and 2 on the programme's surfaces: a protected video's poster frame stays behind
    // its token, a video whose processing failed is not listed, and neither it nor one still being
    // processed is in the dancer's "Buy all".
    const { db } = env.database;
    const showcase = await competition(
      'Delivery Champs',
      ['31', '32', '33', '34', '35'].map((number) => row(number, ['Ngaio Rewiti'], 'Studio 7')),
      { routineBundleRule: rule, dancerNames: 'full' },
    );
    const media = (name: string) => ({
      posterKey: `previews/posters/${name}.jpg`,
      clipKey: `clips/${name}.mp4`,
    });
    const video = async (number: string, values: Parameters<typeof createVideo>[1]) =>
      createVideo(db, {
        showcaseId: showcase.id,
        entryId: (await findEntry(db, showcase.id, number))!.id,
        priceCents: 2000,
        ownText: false,
        processingState: 'ready',
        ...values,
      });
    const open = await video('31', { media: media('open-frame-31') as never });
    await video('32', {
      passwordProtected: true,
      passwordHash: await hashPassword('recital'),
      media: media('secret-frame-32') as never,
    });
    const failed = await video('33', { processingState: 'failed', processingError: 'Not a video file' });
    const preparing = await video('34', { processingState: 'processing' });
    const other = await video('35', {});

    const [dancer] = programmeSearchSchema.parse((await search('ngaio rewiti').expect(200)).body).groups[0]!
      .dancers;
    const page = performerPageSchema.parse(
      (await request(api.app).get(`/api/dancers/${dancer!.id}`).expect(200)).body,
    );
    const found = await Promise.all(
      ['31', '32', '33', '34'].map(async (number) =>
        programmeSearchSchema.parse((await search(`#${number}`).expect(200)).body),
      ),
    );
    for (const answer of [page, ...found]) {
      const text = JSON.stringify(answer);
      expect(text).not.toContain('secret-frame-32');
      expect(text).not.toContain(failed.id);
    }
    const videosOf = (number: string) =>
      page.routines.find((routine) => routine.entryNumber === number)!.videos;
    expect(videosOf('31')[0]!.previewUrl).toBe('/api/video-preview/previews%2Fposters%2Fopen-frame-31.jpg');
    expect(videosOf('32')).toEqual([expect.objectContaining({ passwordProtected: true, previewUrl: null })]);
    expect(videosOf('33')).toEqual([]);
    expect(videosOf('34').map((item) => item.id)).toEqual([preparing.id]);
    expect(page.offer).toMatchObject({ routineCount: 2, separateCents: 4000, priceCents: 3000 });
    expect([...page.offer!.videoIds].sort()).toEqual([open.id, other.id].sort());

    // What the page offers is what the checkout sells: nothing failed or unready in it.
    const buyer = { customerName: 'Hine Rewiti', customerEmail: 'hine.r@example.nz' };
    const sold = await request(api.app)
      .post('/api/cart/checkout')
      .set('X-Forwarded-For', from())
      .send({ ...buyer, items: [{ dancerId: dancer!.id, expectedPriceCents: 3000 }] })
      .expect(201);
    const items = await db
      .select({ videoId: purchaseItems.videoId })
      .from(purchaseItems)
      .innerJoin(sql`purchases p`, sql`p.id = ${purchaseItems.purchaseId}`)
      .where(sql`p.checkout_session_id = ${sold.body.sessionId}`);
    expect(items.map((item) => item.videoId).sort()).toEqual([open.id, other.id].sort());
  });

  it('refuses name searches from one address with 429 long before a programme, but not entry numbers', async () => {
    const ip = '192.0.2.77';
    let refusedAt = 0;
    for (let index = 1; index <= 200 && refusedAt === 0; index++) {
      const answer = await search(`name${String.fromCharCode(97 + (index % 26))}${index}`, ip);
      if (answer.status === 429) refusedAt = index;
      else expect(answer.status).toBe(200);
    }
    expect(refusedAt).toBe(61);
    const refused = await search('maia ngata', ip).expect(429);
    expect(refused.body.message).toMatch(/^Too many name searches/);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(500);
    await search('#47', ip).expect(200);
    await search('maia ngata', '192.0.2.78').expect(200);
  });

  it('finds section words as entries change: added, edited, removed (the words and places follow)', async () => {
    const { db } = env.database;
    const showcase = await competition('Flamenco Cup 2027', [
      row('1', ['Lucía Ortega'], 'Studio Sol', 'Open Solo Flamenco', 'Duende'),
      row('2', ['Pilar Ruiz'], 'Studio Sol', 'Open Duo Tango'),
    ]);
    const entries = (q: string) =>
      search(q)
        .expect(200)
        .then(({ body }) =>
          programmeSearchSchema
            .parse(body)
            .groups.filter((group) => group.showcase.id === showcase.id)
            .flatMap((group) => group.routines.map((routine) => routine.entryNumber)),
        );
    expect(await entries('flamenco duende')).toEqual(['1']);
    expect(await entries('paso doble')).toEqual([]);
    await db.execute(
      sql`update programme_entries set section = 'Open Solo Paso Doble' where showcase_id = ${showcase.id} and entry_number = '2'`,
    );
    expect(await entries('paso doble')).toEqual(['2']);
    expect(await entries('tango')).toEqual([]);
    await db.execute(
      sql`delete from programme_entries where showcase_id = ${showcase.id} and entry_number = '1'`,
    );
    expect(await entries('flamenco')).toEqual([]);
    // Entry 2 is now the showcase's only entry, at place 0: every word's one bit.
    const { rows } = await db.execute<{ word: string; entries: string }>(
      sql`select word, entries::text from programme_section_words where showcase_id = ${showcase.id} order by word`,
    );
    expect(rows).toEqual(
      ['doble', 'open', 'paso', 'routine', 'solo'].map((word) => ({ word, entries: '1' })),
    );
    const places = await db.execute<{ position: number; entry_number: string }>(
      sql`select p.position, e.entry_number from programme_entry_positions p join programme_entries e on e.id = p.entry_id
        where p.showcase_id = ${showcase.id}`,
    );
    expect(places.rows).toEqual([{ position: 0, entry_number: '2' }]);
  });

  it('keeps one length of bits per showcase when two writers add entries at once', async () => {
    const { db, pool } = env.database;
    const showcase = await competition('Twin Writers Cup 2027', [
      row('1', ['Ana Ruiz'], 'Studio Sol', 'Open Solo Jazz'),
    ]);
    const insert = `insert into programme_entries (id, showcase_id, entry_number, entry_sort, section, title)
      values (gen_random_uuid()::text, $1, $2, $3, 'Open Solo Tap', 'Storm')`;
    const first = await pool.connect();
    const second = await pool.connect();
    try {
      await first.query('begin');
      await second.query('begin');
      await first.query(insert, [showcase.id, '2', 2]);
      // The second writer's refresh waits for the first to commit, then counts its entry too.
      const late = second.query(insert, [showcase.id, '3', 3]);
      await new Promise((resolve) => setTimeout(resolve, 200));
      await first.query('commit');
      await late;
      await second.query('commit');
    } finally {
      first.release();
      second.release();
    }
    const { rows } = await db.execute<{ length: number }>(
      sql`select distinct length(entries) as length from programme_section_words where showcase_id = ${showcase.id}`,
    );
    expect(rows).toEqual([{ length: 3 }]);
    const found = programmeSearchSchema.parse((await search('open tap storm').expect(200)).body);
    expect(
      found.groups
        .filter((group) => group.showcase.id === showcase.id)
        .flatMap((group) => group.routines.map((routine) => routine.entryNumber)),
    ).toEqual(['2', '3']);
  });
});
