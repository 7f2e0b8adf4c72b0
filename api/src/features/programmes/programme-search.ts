import { sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { Db } from '@app/shared/db';
import {
  displayDancerName,
  type DancerNameDisplay,
  type ProgrammeSearch,
  type ProgrammeSearchGroup,
  type Routine,
} from '@app/shared/schemas';
import type { JsonText } from '../../http/send-json.ts';
import { searchWords } from '../videos/library.service.ts';
import { preparedStatement, slotsOf } from './prepared.ts';

// "Find your dancer" (decisions 032 and 035): the library's search box also reads the programme. A
// search is one prepared statement: an entry number through programme_entries_showcase_order_idx;
// names and studios by the start of their words (GIN); section words by the entries each word of a
// showcase's programme is in (programme_section_words, decision 042); a found routine's card read
// whole from programme_routine_cards (decisions 040 and 042). Only a search that found nothing as
// typed makes a second, by trigram likeness. Only published public showcases answer: an unlisted one
// is reached by its link and one behind a code by its code, never by a name typed in search
// (decision 030).

/** Dancers answered per search at most: a name search finds a child, it never lists a programme. */
export const MAX_DANCERS = 3;
const MAX_STUDIOS = 3;
/** Routines answered per search (entry numbers and section words), newest competition first. */
const MAX_ROUTINES = 24;
/** Names and studios need this many letters: two letters would match half a programme. */
export const MIN_NAME_LETTERS = 3;

/** Words that only say "an entry number follows". */
const numberWords = new Set(['item', 'entry', 'no', 'number', 'routine']);

/**
 * What a search text asks for: an entry number ("47", "#47", "item 47", "47b") or words. The words
 * are letters and digits only (searchWords), so nothing reaches SQL syntax or a LIKE pattern.
 */
export function readSearch(text: string) {
  const words = searchWords(text);
  const rest = words.filter((word) => !numberWords.has(word));
  const number = rest.length === 1 ? /^0*(\d{1,6})([a-z]{0,2})$/.exec(rest[0]!) : null;
  const spaced = /^(\d{1,6})\s+([a-z])$/i.exec(
    text.replace(/^(?:\s*(?:item|entry|no\.?)\s*)?#?\s*/i, '').trim(),
  );
  if (number) return { kind: 'number' as const, sort: Number(number[1]), exact: `${number[1]}${number[2]}` };
  if (spaced)
    return {
      kind: 'number' as const,
      sort: Number(spaced[1]),
      exact: `${spaced[1]}${spaced[2]!.toLowerCase()}`,
    };
  const key = words.join(' ');
  const letters = key.replace(/[^\p{L}]/gu, '').length;
  return { kind: 'words' as const, words, key, letters };
}

/** A search that may find names: it counts against the per-address limit of name searches. */
export function isNameSearch(text: unknown): boolean {
  if (typeof text !== 'string') return false;
  const read = readSearch(text.slice(0, 5_000));
  return read.kind === 'words' && read.letters >= MIN_NAME_LETTERS;
}

const visibleShowcase = sql`s.published and s.privacy = 'public'`;

/**
 * The routine card of entry `e`, as triggers keep it (decisions 040 and 042): its studio, dancers in
 * programme order as the showcase shows their names, and the videos the library lists (decision 022).
 * Read as text: a search puts it into its answer as it is.
 */
const routineCard = sql`(select c.card::text from programme_routine_cards c where c.entry_id = e.id)`;

/** What a search carries of the entries it found: enough to rank them and read their cards. */
const entryColumns = sql`e.id, e.showcase_id, e.entry_number`;

type EntryIds = { entryIds: string };
const routinesStatement = preparedStatement<EntryIds>(sql`
  select c.card from programme_routine_cards c
  where c.entry_id in (select jsonb_array_elements_text(${slotsOf<EntryIds>()('entryIds')}::jsonb))`);

/** Routines of these entries, keyed by entry id (a dancer's or studio's page). */
export async function routinesOf(db: Db, entryIds: string[]): Promise<Map<string, Routine>> {
  if (entryIds.length === 0) return new Map();
  const rows = await routinesStatement<{ card: Routine }>(db, { entryIds: JSON.stringify(entryIds) });
  return new Map(rows.map(({ card }) => [card.entryId, card]));
}

/** What one search found, one row each, in the order the answer shows them. */
type FoundRow = {
  kind: 'dancer' | 'studio' | 'routine';
  showcaseId: string;
  showcaseName: string;
  slug: string;
  display: DancerNameDisplay;
  id: string;
  name: string | null;
  routineCount: number | null;
  /** The routine card's JSON text (a Routine). */
  routine: string | null;
};

const nothing = sql`select null::text as id, null::text as showcase_id, null::text as name, 0::bigint as rank
  where false`;

/** The library's showcase filter (a slug or id), or none for every competition. */
type Scope = { showcase?: string };
const showcaseSlot = slotsOf<Scope>()('showcase');

/**
 * Every competition, or the one the library is filtered to. Each is its own statement: one text for
 * both (`$1 is null or ...`) gets one generic plan, made for a single showcase, and a search of all
 * of them then ran at an eighth of its speed.
 */
const scopes = {
  every: sql``,
  one: sql`and (s.slug = ${showcaseSlot} or s.id = ${showcaseSlot})`,
};
type ScopeName = keyof typeof scopes;
const scopeOf = ({ showcase }: Scope): ScopeName => (showcase === undefined ? 'every' : 'one');
const forEachScope = <S>(statement: (scope: SQL) => S): Record<ScopeName, S> => ({
  every: statement(scopes.every),
  one: statement(scopes.one),
});

/**
 * What a search found in one statement (one round trip, planned once per connection: at a season's
 * scale planning, round trips and even setting up a plan's unused parts cost as much as reading).
 * `dancers`, `studios` and `entries` are CTE bodies over `visible` (the published public showcases,
 * narrowed by `scope`), each with id, showcase_id, name and its rank; rows come back grouped by
 * competition, newest first.
 */
function answerQuery(scope: SQL, ctes: SQL, dancers: SQL, studios: SQL, entries: SQL): SQL {
  return sql`
    with visible as materialized (
      select s.id, s.name, s.slug, s.dancer_names, s.created_at from showcases s where ${visibleShowcase} ${scope}),
    ${ctes}
    found_dancers as (${dancers}),
    found_studios as (${studios}),
    found_entries as (${entries})
    select f.kind, s.id as "showcaseId", s.name as "showcaseName", s.slug, s.dancer_names as display,
      f.id, f.name, f.routine_count as "routineCount", f.routine
    from (
      select 1 as part, 'dancer' as kind, x.rank, x.id, x.showcase_id, x.name,
        (select count(*)::int from programme_entry_dancers ed where ed.dancer_id = x.id) as routine_count,
        null::text as routine
      from found_dancers x
      union all
      select 2, 'studio', x.rank, x.id, x.showcase_id, x.name,
        (select count(*)::int from programme_entries e where e.studio_id = x.id), null
      from found_studios x
      union all
      select 3, 'routine', e.rank, e.id, e.showcase_id, null, null, ${routineCard}
      from found_entries e
    ) f join visible s on s.id = f.showcase_id
    order by s.created_at desc, s.id, f.part, f.rank`;
}

/**
 * Dancers or studios by name (decision 037) where `match` holds: a whole name first, then the nearest by
 * `distance`, then the newest competition. `gate` limits who may answer (a showcase that hides names
 * answers only to the full name).
 */
function namesWhere(table: SQL, key: Placeholder, match: SQL, distance: SQL, gate: SQL, limit: number) {
  // The nearest `limit` first (a top-N sort), then numbered: numbering every match sorted them all.
  return sql`
    select id, showcase_id, name,
      row_number() over (order by exact desc, distance, created_at desc, id) as rank
    from (select p.id, p.showcase_id, p.name, p.search_key = ${key} as exact,
        ${distance} as distance, s.created_at
      from ${table} p join visible s on s.id = p.showcase_id
      where ${match} and ${gate}
      order by exact desc, distance, s.created_at desc, p.id limit ${limit}) nearest`;
}

/**
 * Every name holding each typed word as the start of one of its words ("maia ngata", "Māia", "mia ch"):
 * those holding every typed word whole first, as trigram word similarity ranked them, then the newest
 * competition (decision 040: computing the similarity of every match was an eighth of a name search).
 */
const byWords = (table: SQL, key: Placeholder, prefix: Placeholder, whole: SQL, gate: SQL, limit: number) =>
  namesWhere(
    table,
    key,
    sql`to_tsvector('simple', p.search_key) @@ to_tsquery('simple', ${prefix})`,
    sql`not ((' ' || p.search_key || ' ') like all (${whole}))`,
    gate,
    limit,
  );

/**
 * By trigram word similarity ("maia ngatta", "mia chn"): `likenessSearch`, when nothing else was found.
 * The words are compared as `(select key)`, a value the planner cannot see (decision 041): seen, it
 * estimated their likeness against every name in the column's statistics (half the statement's
 * planning) and for some words chose to read all 5,600 names (10 ms) over the index (0.1 ms).
 */
const byLikeness = (table: SQL, key: Placeholder, gate: SQL, limit: number) =>
  namesWhere(
    table,
    key,
    sql`p.search_key %> (select ${key}::text)`,
    sql`p.search_key <->> ${key}`,
    gate,
    limit,
  );

type NumberValues = Scope & { sort: number; exact: string };
const numberSlot = slotsOf<NumberValues>();

/**
 * "47" finds 47 first, then 47a, 47b; never 4711 (the number itself is compared, not its text). The
 * number's entries across the season are one range of programme_entries_sort_idx, id and number
 * included (decision 042), joined with the visible competitions afterwards: `offset 0` keeps the range
 * apart, where the generic plan, unable to estimate the filter on parameters, compared every entry
 * with every competition (decision 037).
 */
const numberSearch = forEachScope((scope) =>
  preparedStatement<NumberValues>(
    answerQuery(
      scope,
      sql``,
      nothing,
      nothing,
      sql`
    select ${entryColumns},
      row_number() over (order by lower(e.entry_number) = ${numberSlot('exact')} desc, s.created_at desc, e.entry_number) as rank
    from (select ${entryColumns} from programme_entries e
      where e.entry_sort = ${numberSlot('sort')}
        and (lower(e.entry_number) = ${numberSlot('exact')} or ${numberSlot('exact')} = e.entry_sort::text)
      offset 0) e join visible s on s.id = e.showcase_id
    order by rank limit ${MAX_ROUTINES}`,
    ),
  ),
);

type WordsValues = Scope & {
  /** The typed words, joined by one space. */
  key: string;
  /** Every typed word as the start of a name's word: "'maia':* & 'ngata':*" (letters and digits only). */
  prefix: string;
  /** Whether the text has enough letters to look for names. */
  names: boolean;
  /** The typed words of three letters or more, a JSON array (may be empty): what starts section words. */
  sectionWords: string;
  /** Every typed word as a whole word, LIKE patterns (' % maia % '), a JSON array. */
  whole: string;
};
const wordsSlot = slotsOf<WordsValues>();

/** Who may answer a name: a showcase that hides names answers only to the full name. */
const dancerGate = (key: Placeholder) => sql`(s.dancer_names <> 'hidden' or p.search_key = ${key})`;

const wordsSearch = forEachScope((scope) => {
  const key = wordsSlot('key');
  const names = wordsSlot('names');
  const dancerWhere = sql`${names} and ${dancerGate(key)}`;
  const prefix = wordsSlot('prefix');
  const whole = sql`array(select jsonb_array_elements_text(${wordsSlot('whole')}::jsonb))`;
  const sectionWords = wordsSlot('sectionWords');
  // Section and routine words (decision 042): entries holding, for every typed word, a word of their
  // section or title that starts with it, newest showcase first, then in programme order. Each typed
  // word reads the rows of programme_section_words starting with it (one range of its key, one row a
  // showcase and word; `offset 0` keeps that lookup per typed word, where a generic plan for one
  // competition read all the words' rows); per showcase they are ORed, then ANDed across the typed
  // words, so a rare combination costs what a common one does. The places set are read in order from
  // the first visible showcase on until 24 are found (a recursive step from one set bit to the next).
  return preparedStatement<WordsValues>(
    answerQuery(
      scope,
      sql`
      section_entries as (
        select p.entry_id as id, s.id as showcase_id,
          row_number() over (order by s.created_at desc, s.id, f.position) as rank
        from (select m.id, m.created_at, bit_and(m.entries) as entries
          from (select s.id, s.created_at, typed.n, bit_or(w.entries) as entries
            from jsonb_array_elements_text(${sectionWords}::jsonb) with ordinality typed(word, n)
            cross join lateral (select w.showcase_id, w.entries from programme_section_words w
              where w.word >= typed.word and w.word < typed.word || chr(1114111)
                and starts_with(w.word, typed.word)
              offset 0) w
            join visible s on s.id = w.showcase_id
            group by s.id, s.created_at, typed.n) m
          group by m.id, m.created_at
          having count(*) = jsonb_array_length(${sectionWords}::jsonb) and bit_count(bit_and(m.entries)) > 0
          order by m.created_at desc, m.id limit ${MAX_ROUTINES}) s
        cross join lateral (
          with recursive places(at) as (
            select position(B'1' in s.entries)
            union all
            select at + position(B'1' in substring(s.entries from at + 1)) from places
            where position(B'1' in substring(s.entries from at + 1)) > 0)
          select at - 1 as position from places limit ${MAX_ROUTINES}) f
        join programme_entry_positions p on p.showcase_id = s.id and p.position = f.position
        order by s.created_at desc, s.id, f.position
        limit ${MAX_ROUTINES}),`,
      byWords(sql`programme_dancers`, key, prefix, whole, dancerWhere, MAX_DANCERS),
      byWords(sql`programme_studios`, key, prefix, whole, sql`${names}`, MAX_STUDIOS),
      sql`select * from section_entries`,
    ),
  );
});

type LikenessValues = Scope & { key: string };

/** Dancers and studios by likeness alone, for a search whose words found nothing (a typo). */
const likenessSearch = forEachScope((scope) => {
  const key = slotsOf<LikenessValues>()('key');
  return preparedStatement<LikenessValues>(
    answerQuery(
      scope,
      sql``,
      byLikeness(sql`programme_dancers`, key, dancerGate(key), MAX_DANCERS),
      byLikeness(sql`programme_studios`, key, sql`true`, MAX_STUDIOS),
      nothing,
    ),
  );
});

/**
 * The rows of one search as typed: an entry number, or names and studios by the start of their words
 * and section or title words. What `answersAsTyped` reads and `searchProgramme` starts from.
 */
async function foundAsTyped(db: Db, read: ReturnType<typeof readSearch>, scope: Scope): Promise<FoundRow[]> {
  const statements = scopeOf(scope);
  if (read.kind === 'number')
    return numberSearch[statements]<FoundRow>(db, { ...scope, sort: read.sort, exact: read.exact });
  if (read.words.length === 0) return [];
  return wordsSearch[statements]<FoundRow>(db, {
    ...scope,
    key: read.key,
    prefix: read.words.map((word) => `'${word}':*`).join(' & '),
    names: read.letters >= MIN_NAME_LETTERS,
    sectionWords: JSON.stringify(read.words.filter((word) => word.length >= 3)),
    whole: JSON.stringify(read.words.map((word) => `% ${word} %`)),
  });
}

/**
 * Whether the programmes answer these words as typed (an entry number, a name or studio by the start of
 * its words, section or title words), within `showcase` if given: not only by guessing a typo, and not
 * with nothing. A library search that finds no video is a search that found nothing only when they
 * do not (decision 034).
 */
export async function answersAsTyped(db: Db, text: string, showcase?: string): Promise<boolean> {
  return (await foundAsTyped(db, readSearch(text), { showcase })).length > 0;
}

/**
 * GET /api/programme/search: dancers, studios and routines, grouped by competition, newest first; with
 * `showcase` (the library's filter, a slug or id), that competition's programme only. The answer's JSON
 * text: the routine cards go in as PostgreSQL sent them (decision 042), never parsed and written again.
 */
export async function searchProgramme(
  db: Db,
  text: string,
  showcase?: string,
): Promise<JsonText<ProgrammeSearch>> {
  const read = readSearch(text);
  let found = await foundAsTyped(db, read, { showcase });
  if (found.length === 0 && read.kind === 'words' && read.letters >= MIN_NAME_LETTERS)
    found = await likenessSearch[scopeOf({ showcase })]<FoundRow>(db, {
      showcase,
      key: read.key,
    });
  type Group = Omit<ProgrammeSearchGroup, 'routines'> & { routines: string[] };
  const groups: Group[] = [];
  for (const row of found) {
    let group = groups.at(-1);
    if (group?.showcase.id !== row.showcaseId) {
      group = {
        showcase: { id: row.showcaseId, name: row.showcaseName, slug: row.slug },
        dancers: [],
        studios: [],
        routines: [],
      };
      groups.push(group);
    }
    if (row.kind === 'dancer')
      group.dancers.push({
        id: row.id,
        name: displayDancerName(row.name!, row.display),
        routineCount: row.routineCount!,
      });
    else if (row.kind === 'studio')
      group.studios.push({ id: row.id, name: row.name!, routineCount: row.routineCount! });
    else group.routines.push(row.routine!);
  }
  // Each group as JSON.stringify writes it, its closing brace replaced by the routines' cards.
  const json = groups.map(
    ({ routines, ...group }) => `${JSON.stringify(group).slice(0, -1)},"routines":[${routines.join(',')}]}`,
  );
  return `{"groups":[${json.join(',')}]}` as JsonText<ProgrammeSearch>;
}
