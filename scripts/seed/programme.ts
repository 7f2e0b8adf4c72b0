import { sql } from 'drizzle-orm';
import {
  programmeDancers,
  programmeEntries,
  programmeEntryDancers,
  programmeStudios,
  type Db,
} from '@app/shared/db';

// A realistic competition programme (decision 032): solos, duos and troupes in sections by age and
// style, dancers with macrons and diaereses, studios. Deterministic, so the seed and the committed test
// fixtures (test/fixtures/programme-*.csv, written by scripts/seed/write-programme-fixtures.ts) agree.

export interface ProgrammeRow {
  entryNumber: string;
  section: string;
  title: string;
  dancers: string[];
  studio: string;
}

const firstNames = [
  'Aroha',
  'Mia',
  'Tūī',
  'Zoë',
  'Renée',
  'Ella',
  'Mereana',
  'Olivia',
  'Anahera',
  'Isla',
  'Kōwhai',
  'Ruby',
  'Hana',
  'Chloé',
  'Amelia',
  'Te Ao',
  'Grace',
  'Ngaio',
  'Lucy',
  'Manaia',
  'Sophie',
  'Awhina',
  'Harper',
  'Noémie',
  'Kaia',
  'Aria',
  'Wikitōria',
  'Lily',
  'Pīpī',
  'Charlotte',
  'Ava',
  'Ātaahua',
  'Georgia',
  'Frankie',
];
const lastNames = [
  'Ngata',
  'Chen',
  'Parata',
  'Smith',
  'Tūhoe',
  'Williams',
  'Horomona',
  'Brown',
  'Kāretu',
  'Wilson',
  'Patel',
  'Te Whata',
  'Taylor',
  'Müller',
  'Walker',
  'Rāwiri',
  'Thompson',
  'Singh',
  'Mōrehu',
  'Clarke',
  'Lee',
  'Nguyen',
];
const studios = [
  'Centre Stage Dance Academy',
  'Te Kōwhai Dance Studio',
  'Blenheim School of Dance',
  'Southern Lights Performing Arts',
  'Ōtautahi Dance Collective',
  'Riverside Jazz & Tap',
  'Marlborough Ballet School',
  'Studio 42',
];
const ages = ['8 & Under', '10 & Under', '12 & Under', '14 & Under', '16 & Under', 'Open'];
const levels = ['Junior', 'Junior', 'Intermediate', 'Intermediate', 'Senior', 'Senior'];
const styles = ['Jazz', 'Lyrical', 'Contemporary', 'Tap', 'Classical', 'Hip Hop', 'Musical Theatre'];
const kinds = [
  { kind: 'Solo', size: 1 },
  { kind: 'Solo', size: 1 },
  { kind: 'Solo', size: 1 },
  { kind: 'Duo', size: 2 },
  { kind: 'Trio', size: 3 },
  { kind: 'Troupe', size: 7 },
];
const titles = [
  'Firefly',
  'Into the Light',
  'Kōrero',
  'Paper Boats',
  'River Song',
  'Hold On',
  'Starlight Express',
  'Wild Horses',
  'Tidal',
  'Little Birds',
  'Electric',
  'Pōhutukawa',
  'Rain on the Roof',
  'Moonlight Sonata',
  'Shine',
  'Ascend',
  'Echoes',
  'Fever',
  'Dreamers',
  'Home',
  'Gravity',
  'Seven Nation Army',
  'Clair de Lune',
  'Kia Kaha',
  'Runaway',
  'Bloom',
  'Undertow',
  'Nightingale',
  'Sugar Plum',
  'Thunder',
];

/** A small linear congruential generator: the same programme every time. */
function random(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

/**
 * `count` entries numbered from 1. Each studio has its own dancers, who dance a solo in one section and
 * join their studio's duos and troupes, so a dancer has several routines (entry 47 is Māia Ngata's solo).
 */
export function demoProgramme(count: number, seed = 7): ProgrammeRow[] {
  const next = random(seed);
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)]!;
  const dancersOf = new Map<string, string[]>();
  for (const studio of studios) {
    const names = new Set<string>();
    while (names.size < 12) names.add(`${pick(firstNames)} ${pick(lastNames)}`);
    dancersOf.set(studio, [...names]);
  }
  const rows: ProgrammeRow[] = [];
  for (let number = 1; number <= count; number++) {
    const studio = pick(studios);
    const age = Math.floor(next() * ages.length);
    const { kind, size } = pick(kinds);
    const style = pick(styles);
    const pool = dancersOf.get(studio)!;
    const start = Math.floor(next() * pool.length);
    const dancers = Array.from({ length: size }, (_, at) => pool[(start + at) % pool.length]!);
    rows.push({
      entryNumber: String(number),
      section: `${levels[age]} ${kind} ${style} ${ages[age]}`,
      title: pick(titles),
      dancers,
      studio,
    });
  }
  // The dancer the acceptance walks through: Māia Ngata of Te Kōwhai, entry 47 and three more routines.
  const maia = 'Māia Ngata';
  const home = 'Te Kōwhai Dance Studio';
  const hers = [47, 12, 88, 103].filter((number) => number <= count);
  for (const [at, number] of hers.entries()) {
    const row = rows[number - 1]!;
    row.studio = home;
    row.dancers =
      at === 0 ? [maia] : [maia, ...row.dancers.filter((name) => name !== maia).slice(0, at === 1 ? 1 : 5)];
    if (at === 0) {
      row.section = 'Junior Solo Jazz 10 & Under';
      row.title = 'Firefly';
    }
  }
  for (const row of rows)
    if (!hers.includes(Number(row.entryNumber))) row.dancers = row.dancers.filter((name) => name !== maia);
  return rows.map((row) => (row.dancers.length === 0 ? { ...row, dancers: ['Aroha Ngata'] } : row));
}

const csvCell = (text: string) => (/[",\n\r]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text);

/** The programme as a spreadsheet export: a header, then one row per entry (dancers in one cell). */
export function programmeCsv(rows: ProgrammeRow[]): string {
  const lines = [['Item No', 'Section', 'Routine', 'Dancers', 'Studio']];
  for (const row of rows)
    lines.push([row.entryNumber, row.section, row.title, row.dancers.join(', '), row.studio]);
  return lines.map((line) => line.map(csvCell).join(',')).join('\r\n') + '\r\n';
}

/**
 * Writes a showcase's programme straight into the tables (the seed has no api to call): studios and
 * dancers by name, entries, who dances where. Returns each entry's id by its number.
 */
export async function writeProgramme(db: Db, showcaseId: string, rows: ProgrammeRow[]) {
  const studioNames = [...new Set(rows.map((row) => row.studio))];
  const dancerNames = [...new Set(rows.flatMap((row) => row.dancers))];
  const studios = await db
    .insert(programmeStudios)
    .values(studioNames.map((name) => ({ showcaseId, name })))
    .returning({ id: programmeStudios.id, name: programmeStudios.name });
  const dancers = await db
    .insert(programmeDancers)
    .values(dancerNames.map((name) => ({ showcaseId, name })))
    .returning({ id: programmeDancers.id, name: programmeDancers.name });
  const studioId = new Map(studios.map((row) => [row.name, row.id]));
  const dancerId = new Map(dancers.map((row) => [row.name, row.id]));
  const entries = await db
    .insert(programmeEntries)
    .values(
      rows.map((row) => ({
        showcaseId,
        entryNumber: row.entryNumber,
        entrySort: Number.parseInt(row.entryNumber, 10),
        section: row.section,
        title: row.title,
        studioId: studioId.get(row.studio) ?? null,
      })),
    )
    .returning({ id: programmeEntries.id, entryNumber: programmeEntries.entryNumber });
  const entryId = new Map(entries.map((row) => [row.entryNumber, row.id]));
  await db.insert(programmeEntryDancers).values(
    rows.flatMap((row) =>
      row.dancers.map((name, position) => ({
        entryId: entryId.get(row.entryNumber)!,
        dancerId: dancerId.get(name)!,
        position,
      })),
    ),
  );
  return entryId;
}

/**
 * A season of programmes (issue 29's bench): the `competitions` showcases with most videos each get a programme
 * of `entries` entries (its own seed), and their videos are given to its entries in order, one video
 * an entry, as a season's uploads would be; then vacuumed, as a season at rest is (visibility map set,
 * so autovacuum does not wake during a bench). Returns the counts written.
 */
export async function seedProgrammeSeason(
  db: Db,
  options: { competitions: number; entries: number },
): Promise<{ competitions: number; entries: number; places: number; dancers: number; linked: number }> {
  const { rows: targets } = await db.execute<{ id: string }>(sql`
    select s.id from showcases s
    where not exists (select 1 from programme_entries e where e.showcase_id = s.id)
    order by (select count(*) from videos v where v.showcase_id = s.id) desc, s.created_at desc, s.id
    limit ${options.competitions}`);
  let linked = 0;
  for (const [index, { id }] of targets.entries()) {
    await writeProgramme(db, id, demoProgramme(options.entries, 1_000 + index));
    const result = await db.execute(sql`
      update videos v set entry_id = e.id
      from (select id, row_number() over (order by created_at, id) as n from videos where showcase_id = ${id}) o,
        programme_entries e
      where v.id = o.id and e.showcase_id = ${id} and e.entry_sort = o.n and e.entry_number = o.n::text`);
    linked += result.rowCount ?? 0;
  }
  await db.execute(
    sql`vacuum analyze programme_entries, programme_dancers, programme_studios, programme_entry_dancers, programme_entry_positions, programme_section_words, programme_routine_cards, videos`,
  );
  const count = async (table: string) =>
    Number(
      (await db.execute<{ n: number }>(sql`select count(*)::int as n from ${sql.identifier(table)}`)).rows[0]!
        .n,
    );
  return {
    competitions: targets.length,
    entries: await count('programme_entries'),
    places: await count('programme_entry_dancers'),
    dancers: await count('programme_dancers'),
    linked,
  };
}
