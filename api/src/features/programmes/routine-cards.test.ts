import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { Db } from '@app/shared/db';
import { findEntry } from '@app/shared/programme';
import { dancerNameDisplays, displayDancerName } from '@app/shared/schemas';
import { programmeCsv, type ProgrammeRow } from '../../../../scripts/seed/programme.ts';
import { createShowcase, createVideo, processedMedia } from '../../../../test/support/factories.ts';
import { useTestWorld } from '../../../../test/support/world.ts';
import { linkVideo, mergeDancers, removeDancer, updateEntry } from './entries.service.ts';
import { importProgramme } from './programme-import.ts';
import { routinesOf } from './programme-search.ts';

// Routine cards are kept by triggers (decision 040): after any write, every kept card must equal what
// rebuilding it from the tables writes, and a visitor must see the change at once.

const { env } = useTestWorld();

const rows: ProgrammeRow[] = [
  {
    entryNumber: '1',
    section: 'Junior Solo Jazz',
    title: 'Firefly',
    dancers: ['Māia Ngata'],
    studio: 'Studio 42',
  },
  {
    entryNumber: '2',
    section: 'Junior Duo Tap',
    title: 'Rain',
    dancers: ['Māia Ngata', 'Mia Chen'],
    studio: 'Te Kōwhai Dance Studio',
  },
  {
    entryNumber: '3',
    section: 'Open Troupe',
    title: 'Storm',
    dancers: ['Mia Chen', 'Maia Ngatta'],
    studio: 'Studio 42',
  },
];

type Cards = Record<string, unknown>;

async function keptCards(db: Db): Promise<Cards> {
  const { rows } = await db.execute<{ entryId: string; card: unknown }>(
    sql`select entry_id as "entryId", card from programme_routine_cards order by entry_id`,
  );
  return Object.fromEntries(rows.map((row) => [row.entryId, row.card]));
}

/** Fails when a trigger missed a write: the kept cards against a rebuild of every card. */
async function expectCardsCurrent(db: Db, step: string) {
  const kept = await keptCards(db);
  await db.execute(sql`select programme_cards_refresh(array(select id from programme_entries))`);
  expect(kept, step).toEqual(await keptCards(db));
  const { rows } = await db.execute<{ missing: number }>(sql`select count(*)::int as missing
    from programme_entries e where not exists (select from programme_routine_cards c where c.entry_id = e.id)`);
  expect(rows[0]!.missing, step).toBe(0);
}

const card = async (db: Db, entryId: string) => (await routinesOf(db, [entryId])).get(entryId)!;

describe('routine cards', () => {
  it('follow every write to entries, dancers, studios and videos', async () => {
    const { db } = env.database;
    const showcase = await createShowcase(db, { dancerNames: 'full' });
    await importProgramme(db, showcase.id, Buffer.from(programmeCsv(rows)), {});
    await expectCardsCurrent(db, 'imported');
    const [one, two, three] = await Promise.all(['1', '2', '3'].map((n) => findEntry(db, showcase.id, n)));
    expect(await card(db, one!.id)).toMatchObject({
      entryNumber: '1',
      title: 'Firefly',
      studio: 'Studio 42',
      dancers: [{ name: 'Māia Ngata' }],
      videos: [],
    });

    // Videos: added on the entry, linked, priced, hidden, failed, behind a password, moved, deleted.
    const first = await createVideo(db, {
      showcaseId: showcase.id,
      entryId: one!.id,
      priceCents: 1500,
      media: processedMedia({ posterKey: 'previews/posters/one.jpg' }),
    });
    const second = await createVideo(db, { showcaseId: showcase.id, priceCents: 900 });
    await linkVideo(db, second.id, one!.id);
    await expectCardsCurrent(db, 'videos added and linked');
    expect((await card(db, one!.id)).videos).toEqual([
      expect.objectContaining({
        id: first.id,
        priceCents: 1500,
        previewUrl: '/api/video-preview/previews%2Fposters%2Fone.jpg',
        passwordProtected: false,
      }),
      expect.objectContaining({ id: second.id, priceCents: 900 }),
    ]);
    await db.execute(sql`update videos set price_cents = 2000 where id = ${first.id}`);
    await db.execute(sql`update videos set published = false where id = ${second.id}`);
    expect((await card(db, one!.id)).videos).toEqual([
      expect.objectContaining({ id: first.id, priceCents: 2000 }),
    ]);
    await db.execute(
      sql`update videos set published = true, processing_state = 'failed' where id = ${second.id}`,
    );
    await db.execute(
      sql`update videos set password_protected = true, password_hash = 'x' where id = ${first.id}`,
    );
    expect((await card(db, one!.id)).videos).toEqual([
      expect.objectContaining({ id: first.id, previewUrl: null, passwordProtected: true }),
    ]);
    await expectCardsCurrent(db, 'videos changed');
    await db.execute(
      sql`update videos set processing_state = 'ready', entry_id = ${two!.id} where id = ${second.id}`,
    );
    expect((await card(db, two!.id)).videos.map((video) => video.id)).toEqual([second.id]);
    expect((await card(db, one!.id)).videos.map((video) => video.id)).toEqual([first.id]);
    await db.execute(sql`delete from videos where id = ${first.id}`);
    expect((await card(db, one!.id)).videos).toEqual([]);
    await expectCardsCurrent(db, 'videos moved and deleted');

    // The entry's own text, studio and dancers; studio and dancer renamed; a studio deleted.
    await updateEntry(db, one!.id, {
      title: 'Firefly (final)',
      studio: 'Centre Stage',
      dancers: ['Zoë Müller'],
    });
    expect(await card(db, one!.id)).toMatchObject({
      title: 'Firefly (final)',
      studio: 'Centre Stage',
      dancers: [{ name: 'Zoë Müller' }],
    });
    await db.execute(sql`update programme_studios set name = 'Studio 42 Ōtautahi'
      where showcase_id = ${showcase.id} and name = 'Studio 42'`);
    expect((await card(db, three!.id)).studio).toBe('Studio 42 Ōtautahi');
    await db.execute(
      sql`update programme_dancers set name = 'Mia Chén' where showcase_id = ${showcase.id} and name = 'Mia Chen'`,
    );
    expect((await card(db, three!.id)).dancers.map((dancer) => dancer.name)).toEqual([
      'Mia Chén',
      'Maia Ngatta',
    ]);
    await db.execute(
      sql`delete from programme_studios where showcase_id = ${showcase.id} and name = 'Studio 42 Ōtautahi'`,
    );
    expect((await card(db, three!.id)).studio).toBeNull();
    await expectCardsCurrent(db, 'entries, studios and dancers changed');

    // Two spellings merged, then a dancer removed on request: the name goes from every card.
    const { rows: dancers } = await db.execute<{ id: string; name: string }>(
      sql`select id, name from programme_dancers where showcase_id = ${showcase.id}`,
    );
    const id = (name: string) => dancers.find((dancer) => dancer.name === name)!.id;
    await mergeDancers(db, showcase.id, id('Māia Ngata'), id('Maia Ngatta'));
    expect((await card(db, three!.id)).dancers.map((dancer) => dancer.name)).toEqual([
      'Mia Chén',
      'Māia Ngata',
    ]);
    await removeDancer(db, id('Māia Ngata'));
    expect((await card(db, two!.id)).dancers.map((dancer) => dancer.name)).toEqual(['Mia Chén']);
    expect((await card(db, three!.id)).dancers.map((dancer) => dancer.name)).toEqual(['Mia Chén']);
    await expectCardsCurrent(db, 'dancers merged and removed');

    // A corrected programme: entries updated and added.
    await importProgramme(
      db,
      showcase.id,
      Buffer.from(
        programmeCsv([
          { ...rows[1]!, title: 'Rain (re-run)' },
          {
            entryNumber: '4',
            section: 'Senior Solo',
            title: 'Dawn',
            dancers: ['Aroha Ngata'],
            studio: 'Studio 4',
          },
        ]),
      ),
      {},
    );
    expect((await card(db, two!.id)).title).toBe('Rain (re-run)');
    await expectCardsCurrent(db, 're-imported');

    // The showcase shows names otherwise: every card of it says so at once (decision 042).
    await db.execute(sql`update showcases set dancer_names = 'initial' where id = ${showcase.id}`);
    expect((await card(db, two!.id)).dancers.map((dancer) => dancer.name)).toEqual(['Māia N.', 'Mia C.']);
    await expectCardsCurrent(db, 'names shown by initial');
    await db.execute(sql`update showcases set dancer_names = 'hidden' where id = ${showcase.id}`);
    expect((await card(db, two!.id)).dancers).toEqual([]);
    await expectCardsCurrent(db, 'names hidden');
  });

  it('show a name in SQL as displayDancerName shows it in TypeScript', async () => {
    const names = [
      'Māia Ngata',
      'Aroha',
      '  Zoë   van der Berg ',
      'mia chen',
      'Ōrewa ōtaki',
      'Li',
      'Anne-Marie O’Neil',
    ];
    for (const display of dancerNameDisplays)
      for (const name of names) {
        const { rows } = await env.database.db.execute<{ shown: string | null }>(
          sql`select programme_dancer_name(${name}, ${display}) as shown`,
        );
        expect(rows[0]!.shown, `${display}: ${name}`).toBe(displayDancerName(name, display));
      }
  });

  it('hold both of two videos added to one entry at the same time', async () => {
    const { db, pool } = env.database;
    const showcase = await createShowcase(db);
    await importProgramme(db, showcase.id, Buffer.from(programmeCsv(rows.slice(0, 1))), {});
    const entry = (await findEntry(db, showcase.id, '1'))!;
    const insert = `insert into videos (id, title, description, tags, aws_key, showcase_id, entry_id)
      values (gen_random_uuid()::text, $1, '', '{}', $1, $2, $3) returning id`;
    const first = await pool.connect();
    const second = await pool.connect();
    try {
      await first.query('begin');
      await second.query('begin');
      const a = await first.query<{ id: string }>(insert, ['angle-a', showcase.id, entry.id]);
      // The second writer's card waits for the first to commit, then reads both videos.
      const b = second.query<{ id: string }>(insert, ['angle-b', showcase.id, entry.id]);
      await new Promise((resolve) => setTimeout(resolve, 200));
      await first.query('commit');
      const bId = (await b).rows[0]!.id;
      await second.query('commit');
      expect((await card(db, entry.id)).videos.map((video) => video.id).sort()).toEqual(
        [a.rows[0]!.id, bId].sort(),
      );
    } finally {
      first.release();
      second.release();
    }
    await expectCardsCurrent(db, 'concurrent videos');
  });
});
