import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '@app/shared/db';
import { listedVideoV } from '@app/shared/sales';
import {
  displayDancerName,
  type DancerNameDisplay,
  type ProgrammeSearch,
  type ProgrammeSearchGroup,
  type Routine,
} from '@app/shared/schemas';
import { searchWords } from '../videos/library.service.ts';
import { preparedRows } from './prepared.ts';

// "Find your dancer" (decision 032): the library's search box also reads the programme. Each kind of
// match is one indexed query over every match (no "newest N" window): an entry number through
// programme_entries_sort_idx, names and studios through their trigram indexes, section words through
// the entries' trigram index. Only published public showcases answer: an unlisted one is reached by its
// link and one behind a code by its code, never by a name typed in search (decision 030).

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

type ShowcaseRow = {
  id: string;
  name: string;
  slug: string;
  dancerNames: DancerNameDisplay;
  createdAt: string;
};

const visibleShowcase = sql`s.published and s.privacy = 'public'`;

/**
 * Routines of these entries, with their dancers (as the showcase shows them) and published videos, as
 * the library shows them (decision 022): the owner's picture or the poster frame, never the frame of a
 * password-protected video; a video whose processing failed is not listed.
 */
export async function routinesOf(db: Db, entryIds: string[]): Promise<Map<string, Routine>> {
  if (entryIds.length === 0) return new Map();
  const rows = await preparedRows<{
    entryId: string;
    entryNumber: string;
    section: string;
    title: string;
    studio: string | null;
    display: DancerNameDisplay;
    dancers: Array<{ id: string; name: string }>;
    videos: Routine['videos'];
  }>(
    db,
    sql`
    select e.id as "entryId", e.entry_number as "entryNumber", e.section, e.title, st.name as studio,
      s.dancer_names as display,
      coalesce((select jsonb_agg(jsonb_build_object('id', d.id, 'name', d.name) order by ed.position)
        from programme_entry_dancers ed join programme_dancers d on d.id = ed.dancer_id
        where ed.entry_id = e.id), '[]') as dancers,
      coalesce((select jsonb_agg(jsonb_build_object('id', v.id, 'title', v.title, 'priceCents', v.price_cents,
          'previewUrl', coalesce(v.preview_url, case when not v.password_protected
            then '/api/video-preview/' || replace(v.media->>'posterKey', '/', '%2F') end),
          'passwordProtected', v.password_protected) order by v.created_at, v.id)
        from videos v where v.entry_id = e.id and v.published and ${listedVideoV}), '[]') as videos
    from programme_entries e join showcases s on s.id = e.showcase_id
    left join programme_studios st on st.id = e.studio_id
    where e.id in (select jsonb_array_elements_text(${JSON.stringify(entryIds)}::jsonb))`,
  );
  return new Map(
    rows.map(({ display, dancers, ...row }) => [
      row.entryId,
      {
        ...row,
        dancers:
          display === 'hidden'
            ? []
            : dancers.map((dancer) => ({ id: dancer.id, name: displayDancerName(dancer.name, display)! })),
      },
    ]),
  );
}

/** GET /api/programme/search: dancers, studios and routines, grouped by competition, newest first. */
export async function searchProgramme(db: Db, text: string): Promise<ProgrammeSearch> {
  const read = readSearch(text);
  if (read.kind === 'words' && read.words.length === 0) return { groups: [] };

  let entryIds: Array<{ id: string; showcaseId: string }> = [];
  let dancers: Array<{ id: string; showcaseId: string; name: string; routineCount: number }> = [];
  let studios: Array<{ id: string; showcaseId: string; name: string; routineCount: number }> = [];

  if (read.kind === 'number') {
    // "47" finds 47 first, then 47a, 47b; never 4711 (the number itself is compared, not its text).
    entryIds = await preparedRows<{ id: string; showcaseId: string }>(
      db,
      sql`
      select e.id, e.showcase_id as "showcaseId" from programme_entries e join showcases s on s.id = e.showcase_id
      where e.entry_sort = ${read.sort} and ${visibleShowcase}
        and (lower(e.entry_number) = ${read.exact} or ${read.exact} = e.entry_sort::text)
      order by lower(e.entry_number) = ${read.exact} desc, s.created_at desc, e.entry_number
      limit ${MAX_ROUTINES}`,
    );
  } else {
    const key = read.key;
    const nameQueries =
      read.letters >= MIN_NAME_LETTERS
        ? [
            // A whole name first, then the nearest by trigrams over the unaccented key (word_similarity,
            // so "maia" finds "Māia Ngata"); a showcase that hides names answers only to the full name.
            db.execute<{ id: string; showcaseId: string; name: string; routineCount: number }>(sql`
              select d.id, d.showcase_id as "showcaseId", d.name,
                (select count(*)::int from programme_entry_dancers ed where ed.dancer_id = d.id) as "routineCount"
              from programme_dancers d join showcases s on s.id = d.showcase_id
              where ${visibleShowcase} and d.search_key %> ${key}
                and (s.dancer_names <> 'hidden' or d.search_key = ${key})
              order by d.search_key = ${key} desc, d.search_key <->> ${key}, s.created_at desc
              limit ${MAX_DANCERS}`),
            db.execute<{ id: string; showcaseId: string; name: string; routineCount: number }>(sql`
              select st.id, st.showcase_id as "showcaseId", st.name,
                (select count(*)::int from programme_entries e where e.studio_id = st.id) as "routineCount"
              from programme_studios st join showcases s on s.id = st.showcase_id
              where ${visibleShowcase} and st.search_key %> ${key}
              order by st.search_key = ${key} desc, st.search_key <->> ${key}, s.created_at desc
              limit ${MAX_STUDIOS}`),
          ]
        : [];
    // Section and routine words: every word in the entry's section or title, newest showcase first.
    // A showcase whose programme lacks a word is skipped by its one row of words
    // (programme_showcase_words), so a word found nowhere reads 60 short rows, not 24,000 entries; of
    // the rest, the newest 24 are read, each one's entries in programme order (an index) up to 24. So
    // a search reads at most 24 x 400 entries however large the season (decision 035); a routine found
    // only past the 24th competition whose programme holds every word is not answered.
    const sectionWords = read.words.filter((word) => word.length >= 3);
    const holdsEvery = (column: SQL) =>
      sql.join(
        sectionWords.map((word) => sql`${column} like ${`%${word}%`}`),
        sql` and `,
      );
    const sectionQuery =
      sectionWords.length > 0
        ? db.execute<{ id: string; showcaseId: string }>(sql`
            select e.id, e.showcase_id as "showcaseId"
            from (select s.id, s.created_at from showcases s join programme_showcase_words w on w.showcase_id = s.id
              where ${visibleShowcase} and ${holdsEvery(sql`w.words`)}
              order by s.created_at desc, s.id limit ${MAX_ROUTINES}) s
            cross join lateral (select e.id, e.showcase_id, e.entry_sort, e.entry_number from programme_entries e
              where e.showcase_id = s.id and ${holdsEvery(sql`e.section_key`)}
              order by e.entry_sort, e.entry_number limit ${MAX_ROUTINES}) e
            order by s.created_at desc, s.id, e.entry_sort, e.entry_number
            limit ${MAX_ROUTINES}`)
        : undefined;
    const [found, places, sections] = await Promise.all([nameQueries[0], nameQueries[1], sectionQuery]);
    dancers = found?.rows ?? [];
    studios = places?.rows ?? [];
    entryIds = sections?.rows ?? [];
  }

  const showcaseIds = [...new Set([...entryIds, ...dancers, ...studios].map((row) => row.showcaseId))];
  if (showcaseIds.length === 0) return { groups: [] };
  const shows = await preparedRows<ShowcaseRow>(
    db,
    sql`
    select id, name, slug, dancer_names as "dancerNames", created_at::text as "createdAt" from showcases
    where id in (select jsonb_array_elements_text(${JSON.stringify(showcaseIds)}::jsonb))
    order by created_at desc, id`,
  );
  const routines = await routinesOf(
    db,
    entryIds.map((row) => row.id),
  );
  const groups: ProgrammeSearchGroup[] = shows.map((show) => ({
    showcase: { id: show.id, name: show.name, slug: show.slug },
    dancers: dancers
      .filter((dancer) => dancer.showcaseId === show.id)
      .map((dancer) => ({
        id: dancer.id,
        name: displayDancerName(dancer.name, show.dancerNames),
        routineCount: dancer.routineCount,
      })),
    studios: studios
      .filter((studio) => studio.showcaseId === show.id)
      .map(({ id, name, routineCount }) => ({ id, name, routineCount })),
    routines: entryIds
      .filter((row) => row.showcaseId === show.id)
      .flatMap((row) => routines.get(row.id) ?? []),
  }));
  return { groups };
}
