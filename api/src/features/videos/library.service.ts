import { createHash } from 'node:crypto';
import { and, asc, eq, ne, or, sql, type SQL } from 'drizzle-orm';
import { showcases, videos, type Db } from '@app/shared/db';
import {
  FEATURED_SHELVES,
  LIBRARY_MAX_PAGE,
  LIBRARY_PAGE_SIZE,
  MORE_VIDEOS_SLUG,
  SHELF_SIZE,
  type LibraryFilters,
  type LibraryPage,
  type LibraryShelves,
  type PublicVideo,
  type ShowcaseSummary,
} from '@app/shared/schemas';
import { listedVideoV, videoAvailabilityV } from '@app/shared/sales';
import { createToken, readToken } from '@app/shared/signing';
import { HttpError } from '../../http/errors.ts';
import { showcaseGateColumns } from '../privacy/privacy.service.ts';

// The library's queries (decision 020): keyset pages of the whole library, numbered pages of one
// showcase, ranked search with prefixes and typo suggestions (migration catalogue_search).

/** Shown to the public: neither the video nor its showcase is hidden (a query joined with showcases). */
export const publishedVideo = and(eq(videos.published, true), sql`coalesce(${showcases.published}, true)`);

/**
 * Whether the public may see a video (`shown`) and its showcase's privacy (`gate`, docs/decisions/030:
 * the routes ask for the access code where one is set), for a select from videos left-joined to showcases.
 */
export const videoVisibilityColumns = { shown: sql<boolean>`${publishedVideo}`, gate: showcaseGateColumns };

/** A video's row and whether the public may see it (`shown`). */
export async function videoWithVisibility(db: Db, id: string) {
  const [row] = await db
    .select({ video: videos, ...videoVisibilityColumns })
    .from(videos)
    .leftJoin(showcases, eq(showcases.id, videos.showcaseId))
    .where(eq(videos.id, id));
  return row && { ...row.video, shown: row.shown, gate: row.gate };
}

/** Words searched for at most; the rest of a long search text is ignored. */
const MAX_SEARCH_WORDS = 8;

/** Search text with nothing to search for (only punctuation or symbols): it matches no video. */
export const nothingToFind = (text: string | undefined) =>
  Boolean(text?.trim()) && searchWords(text).length === 0;

/**
 * The words of a search text, lower case and without accents. Anything that is not a letter or a
 * digit separates words, so no character reaches PostgreSQL's query syntax (`:*`, `&|!()`, quotes,
 * backslashes) or a LIKE pattern (`%`, `_`): search text is data.
 */
export function searchWords(text: string | undefined): string[] {
  const words = (text ?? '')
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .match(/[\p{L}\p{N}]+/gu);
  return [...new Set(words ?? [])].map((word) => word.slice(0, 40)).slice(0, MAX_SEARCH_WORDS);
}

// As publicVideoColumns (videos.queries.ts) spells them, over the alias v: the owner's picture or the
// worker's poster frame, and the preview clip of a paid video; neither frame nor clip of a protected
// one (decision 022).
const videoFields = sql`${sql.raw(`v.id, v.title, v.description, v.tags, v.showcase_id as "showcaseId",
  v.price_cents as "priceCents",
  coalesce(v.preview_url, case when not v.password_protected
    then '/api/video-preview/' || replace(v.media->>'posterKey', '/', '%2F') end) as "previewUrl",
  case when v.price_cents > 0 and not v.password_protected
    then '/api/video-clips/' || replace(v.media->>'clipKey', '/', '%2F') end as "previewClipUrl",
  v.password_protected as "passwordProtected", v.created_at as "createdAt"`)}, ${videoAvailabilityV} as "availability"`;

type VideoRow = Omit<PublicVideo, 'createdAt'> & { createdAt: Date | string };
type SortedRow = VideoRow & { sortTime: string; sortRank: string | null };

const publicVideo = ({ sortTime: _t, sortRank: _r, ...row }: SortedRow): PublicVideo => ({
  ...row,
  createdAt: new Date(row.createdAt).toISOString(),
});

/**
 * The search as a tsquery: every word must match, as a prefix ("jaz" finds "jazz") or, for a word
 * no library word starts with, as one of the three library words nearest to it by trigrams ("balet"
 * finds "ballet"). Words are letters and digits only (searchWords), so quoting them is safe. Made in
 * its own small query so that the main one sees a constant tsquery and can use the index.
 */
async function prepareSearch(db: Db, words: string[]): Promise<string> {
  const result = await db.execute<{ everyWord: string }>(sql`
    with terms as (
      select t.ord, lower(public.unaccent('public.unaccent'::regdictionary, t.word)) as word
      from jsonb_array_elements_text(${JSON.stringify(words)}::jsonb) with ordinality as t(word, ord)
    ), parts as (
      select ord, '(' || quote_literal(word) || case when length(word) >= 2 then ':*' else '' end
        || coalesce((
          select ' | ' || string_agg(quote_literal(near.word), ' | ')
          from (
            select w.word from library_search_words w
            where length(terms.word) >= 4 and w.word % terms.word
              and not exists (select 1 from library_search_words p where p.word like terms.word || '%')
            order by w.word <-> terms.word limit 3
          ) near
        ), '') || ')' as part
      from terms
    )
    select to_tsquery('simple', string_agg(part, ' & ' order by ord))::text as "everyWord" from parts`);
  return result.rows[0]?.everyWord ?? '';
}

export type ShowcaseScope = { kind: 'all' } | { kind: 'none' } | { kind: 'showcase'; id: string };

interface Sorted<Row> {
  rows: Row[];
  searched: boolean;
  /** How many videos match in all (page.withTotal). */
  total?: number;
}

/** The owner's orders (admin list); visitors get relevance, then newest. */
export type VideoSort = 'newest' | 'oldest' | 'title';

/**
 * Matches ranked by relevance at most: the newest this many. Ranking reads every match it ranks, and
 * a broad word ("jazz") matches a quarter of a 50,000-video library; a parent looks for this season's
 * routine, so the newest matches are ranked and older ones follow, newest first.
 */
export const RANKED_MATCHES = 500;

/**
 * Videos matching the filters in library order: by relevance when searching (the newest
 * RANKED_MATCHES matches, then the older ones newest first), otherwise newest first. `after`
 * continues a keyset page; `offset` is used by numbered pages, which stay short (one showcase, or
 * the results of one search).
 */
export async function sortedVideos<Row = SortedRow>(
  db: Db,
  // includeHidden: the owner's list; visitors never see a hidden video or one of a hidden showcase.
  filters: { words: string[]; scope: ShowcaseScope; price?: 'free' | 'paid'; includeHidden?: boolean },
  page: { limit: number; after?: CursorKey; offset?: number; withTotal?: boolean },
  view: { columns?: SQL; sort?: VideoSort } = {},
): Promise<Sorted<Row>> {
  const searched = filters.words.length > 0;
  const search = searched ? await prepareSearch(db, filters.words) : undefined;
  // A filter rather than a join with showcases, so a scan in the order of videos_created_at_idx keeps
  // its order and can stop at the limit.
  // Unlisted and access-code showcases are out of the library and search: only their own page lists them.
  const unlisted =
    filters.scope.kind === 'showcase' ? sql`not published` : sql`not published or privacy <> 'public'`;
  const where: SQL[] = [
    filters.includeHidden
      ? sql`true`
      : sql`v.published and coalesce(v.showcase_id not in (select id from showcases where ${unlisted}), true)`,
  ];
  if (!filters.includeHidden) where.push(listedVideoV);
  if (filters.scope.kind === 'none') where.push(sql`v.showcase_id is null`);
  if (filters.scope.kind === 'showcase') where.push(sql`v.showcase_id = ${filters.scope.id}`);
  if (filters.price === 'free') where.push(sql`v.price_cents = 0`);
  if (filters.price === 'paid') where.push(sql`v.price_cents > 0`);
  const query = sql`${search ?? ''}::tsquery`;
  // The video's document holds its showcase's name too (migration library_search_document), weighted
  // lowest: a match through the showcase's name alone ranks after one through the video's own words.
  if (search !== undefined) where.push(sql`v.search_vector @@ ${query}`);
  const matching = sql.join(where, sql` and `);
  const counted = page.withTotal
    ? db
        .execute<{ total: number }>(sql`select count(*)::int as total from videos v where ${matching}`)
        .then((result) => result.rows[0]?.total ?? 0)
    : undefined;
  // A numbered page past the end is answered from the count alone: its OFFSET would read every match.
  if (counted && page.offset) {
    const total = await counted;
    if (page.offset >= total) return { rows: [], searched, total };
  }
  // The keyset condition: (rank, time, id) after a relevance page, (time, id) after a newest-first one.
  const after = (keys: SQL, ranked: boolean) =>
    !page.after
      ? sql`true`
      : ranked
        ? sql`(${keys}) < (${page.after.rank}::real, ${page.after.time}::timestamptz, ${page.after.id})`
        : sql`(${keys}) < (${page.after.time}::timestamptz, ${page.after.id})`;
  // "nulls last" as videos_created_at_idx is ordered (created_at is never null), so it can be used.
  const newest = sql`v.created_at desc nulls last, v.id desc nulls last`;
  const columns = view.columns ?? videoFields;
  let result;
  if (search !== undefined && view.sort === undefined) {
    // Relevance: rank the newest RANKED_MATCHES matches (sort key: rank, time, id); when there are
    // more, the older ones follow with the rank -1, newest first, so keyset cursors run through both.
    // They are read only when the ranked ones do not fill the page.
    const wanted = page.limit + (page.offset ?? 0);
    result = db.execute<Row & Record<string, unknown>>(sql`
      with candidates as materialized (
        select v.id, v.created_at, ts_rank(v.search_vector, ${query}) as rank from videos v
        where ${matching}
        order by ${newest} limit ${RANKED_MATCHES}
      ), ranked as materialized (
        select id, created_at, rank from candidates where ${after(sql`rank, created_at, id`, true)}
        order by rank desc, created_at desc, id desc limit ${wanted}
      ), older as (
        select v.id, v.created_at, -1::real as rank from videos v
        where (select count(*) from ranked) < ${wanted} and (select count(*) from candidates) = ${RANKED_MATCHES}
          and ${matching}
          and (v.created_at, v.id) < (select created_at, id from candidates order by created_at, id limit 1)
          and ${after(sql`-1::real, v.created_at, v.id`, true)}
        order by ${newest} limit ${wanted}
      ), ordered as (
        select * from ranked union all select * from older
      )
      select ${columns}, o.created_at::text as "sortTime", o.rank::text as "sortRank"
      from ordered o join videos v on v.id = o.id
      order by o.rank desc, o.created_at desc, o.id desc
      limit ${page.limit} offset ${page.offset ?? 0}`);
  } else {
    const order =
      view.sort === 'oldest'
        ? sql`v.created_at asc nulls first, v.id asc nulls first`
        : view.sort === 'title'
          ? sql`lower(v.title) asc, v.id asc`
          : newest;
    result = db.execute<Row & Record<string, unknown>>(sql`
      select ${columns}, v.created_at::text as "sortTime", null as "sortRank"
      from videos v
      where ${matching} and ${after(sql`v.created_at, v.id`, false)}
      order by ${order}
      limit ${page.limit} offset ${page.offset ?? 0}`);
  }
  const [{ rows }, total] = await Promise.all([result, counted]);
  return { rows: rows as Row[], searched, total };
}

// Cursors: the last row's sort key, signed and bound to the filters it was made for, so a cursor
// that was altered, or made for another search, is refused (400) rather than misread.

interface CursorKey {
  time: string;
  id: string;
  rank: string | null;
}

const filterKey = (filters: { words: string[]; scope: ShowcaseScope; price?: string }) =>
  createHash('sha256').update(JSON.stringify(filters)).digest('base64url').slice(0, 16);

function readCursor(key: Buffer, cursor: string, filters: string): CursorKey {
  const payload = readToken(key, cursor);
  const valid =
    payload &&
    payload.f === filters &&
    typeof payload.t === 'string' &&
    typeof payload.i === 'string' &&
    (payload.r === null || typeof payload.r === 'string');
  if (!valid) throw new HttpError(400, 'This page link is not valid; start again from the first page.');
  return { time: payload.t as string, id: payload.i as string, rank: payload.r as string | null };
}

/** The showcase a `showcase` filter names (id, slug or "more"); null when there is none such. */
export async function resolveScope(
  db: Db,
  showcase: string | undefined,
  { includeHidden = false } = {},
): Promise<ShowcaseScope | null> {
  if (!showcase) return { kind: 'all' };
  if (showcase === MORE_VIDEOS_SLUG) return { kind: 'none' };
  const named = or(eq(showcases.id, showcase), eq(showcases.slug, showcase));
  // A list filtered by showcase is kept in memory for everyone: never one behind an access code.
  const [row] = await db
    .select({ id: showcases.id })
    .from(showcases)
    .where(includeHidden ? named : and(named, eq(showcases.published, true), ne(showcases.privacy, 'code')));
  return row ? { kind: 'showcase', id: row.id } : null;
}

/** GET /api/videos: one keyset page and the cursor of the next, if any. */
export async function listVideos(
  db: Db,
  cursorKey: Buffer,
  query: LibraryFilters & { limit: number; cursor?: string },
): Promise<{ videos: PublicVideo[]; next?: string }> {
  const scope = await resolveScope(db, query.showcase);
  const filters = {
    words: searchWords(query.q),
    scope: scope ?? { kind: 'all' as const },
    price: query.price,
  };
  const key = filterKey(filters);
  const after = query.cursor ? readCursor(cursorKey, query.cursor, key) : undefined;
  if (!scope || nothingToFind(query.q)) return { videos: [] };
  const { rows } = await sortedVideos(db, filters, { limit: query.limit + 1, after });
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  const next =
    rows.length > query.limit && last
      ? createToken(cursorKey, { f: key, t: last.sortTime, i: last.id, r: last.sortRank })
      : undefined;
  return { videos: page.map(publicVideo), next };
}

/** A showcase's columns as the api answers them (admin writes, and the summaries below). */
export const showcaseColumns = {
  id: showcases.id,
  name: showcases.name,
  description: showcases.description,
  orderPriority: showcases.orderPriority,
  slug: showcases.slug,
  showVideosInSearchEngines: showcases.showVideosInSearchEngines,
  privacy: showcases.privacy,
  published: showcases.published,
  createdAt: showcases.createdAt,
};

const { published: _published, ...publicShowcaseColumns } = showcaseColumns;
const summaryFields = {
  ...publicShowcaseColumns,
  // Spelled out: inside a one-table select drizzle would name the column without its table.
  videoCount: sql<number>`(select count(*) from videos v where v.showcase_id = showcases.id and v.published and ${listedVideoV})::int`,
};

const summary = (row: Omit<ShowcaseSummary, 'createdAt'> & { createdAt: Date }): ShowcaseSummary => ({
  ...row,
  createdAt: row.createdAt.toISOString(),
});

/** GET /api/showcases: in the owner's order, each with its slug and video count. */
export async function showcaseSummaries(db: Db): Promise<ShowcaseSummary[]> {
  const rows = await db
    .select(summaryFields)
    .from(showcases)
    .where(and(eq(showcases.published, true), eq(showcases.privacy, 'public')))
    .orderBy(asc(showcases.orderPriority), asc(showcases.createdAt));
  return rows.map(summary);
}

/** GET /api/library (LibraryShelves). */
export async function libraryShelves(db: Db): Promise<LibraryShelves> {
  const list = (await showcaseSummaries(db)).filter((showcase) => showcase.videoCount > 0);
  const featured = list.slice(0, FEATURED_SHELVES).map((showcase) => showcase.id);
  const firstRows = await db.execute<SortedRow & { shelf: string | null }>(sql`
    select shelf.id as shelf, ${videoFields}, v.created_at::text as "sortTime", null as "sortRank"
    from (select jsonb_array_elements_text(${JSON.stringify(featured)}::jsonb) as id union all select null) shelf
      cross join lateral (
        select * from videos
        where (showcase_id = shelf.id or (shelf.id is null and showcase_id is null)) and published
          and processing_state is distinct from 'failed'
        order by created_at desc nulls last, id desc nulls last limit ${SHELF_SIZE}
      ) v`);
  const byShelf = new Map<string | null, SortedRow[]>();
  for (const { shelf, ...row } of firstRows.rows) byShelf.set(shelf, [...(byShelf.get(shelf) ?? []), row]);
  const rowsOf = (id: string | null) => (byShelf.get(id) ?? []).map(publicVideo);
  const [loose] = await db
    .execute<{ count: number }>(
      sql`select count(*)::int as count from videos v where v.showcase_id is null and v.published and ${listedVideoV}`,
    )
    .then((result) => result.rows);
  const shelves: LibraryShelves['shelves'] = list.map((showcase) => ({
    showcase,
    videoCount: showcase.videoCount,
    videos: rowsOf(showcase.id),
  }));
  if (loose && loose.count > 0)
    shelves.push({ showcase: null, videoCount: loose.count, videos: rowsOf(null) });
  return {
    shelves,
    videoCount: shelves.reduce((total, shelf) => total + shelf.videoCount, 0),
  };
}

export type ShowcaseLookup =
  { kind: 'found'; showcase: ShowcaseSummary | null } | { kind: 'moved'; slug: string } | { kind: 'missing' };

/** A showcase page's showcase by slug ("more": the videos without one), or where its old slug moved. */
export async function findShowcaseBySlug(db: Db, slug: string): Promise<ShowcaseLookup> {
  if (slug === MORE_VIDEOS_SLUG) return { kind: 'found', showcase: null };
  const [row] = await db
    .select(summaryFields)
    .from(showcases)
    .where(and(eq(showcases.slug, slug), eq(showcases.published, true)));
  if (row) return { kind: 'found', showcase: summary(row) };
  const moved = await db.execute<{ slug: string }>(sql`
    select s.slug from showcase_slug_redirects r join showcases s on s.id = r.showcase_id
    where r.slug = ${slug} and s.published`);
  const target = moved.rows[0];
  return target ? { kind: 'moved', slug: target.slug } : { kind: 'missing' };
}

/** One numbered page of a showcase's videos (showcase null: the videos without one). */
export async function showcasePage(
  db: Db,
  showcase: ShowcaseSummary | null,
  query: { page: number; price?: 'free' | 'paid' },
): Promise<LibraryPage> {
  const scope: ShowcaseScope = showcase ? { kind: 'showcase', id: showcase.id } : { kind: 'none' };
  const offset = (query.page - 1) * LIBRARY_PAGE_SIZE;
  // Past the end of a showcase whose count is known: nothing to read.
  if (showcase && !query.price && offset > 0 && offset >= showcase.videoCount)
    return pageOf(showcase, [], query.page, showcase.videoCount);
  const { rows, total: matching } = await sortedVideos(
    db,
    { words: [], scope, price: query.price },
    {
      limit: LIBRARY_PAGE_SIZE,
      offset: (query.page - 1) * LIBRARY_PAGE_SIZE,
      // A showcase's count is known already, unless a price filter narrows it.
      withTotal: query.price !== undefined || !showcase,
    },
  );
  const total = showcase && !query.price ? showcase.videoCount : (matching ?? 0);
  return pageOf(showcase, rows, query.page, total);
}

/**
 * One numbered page of search results, with how many there are in all. `onMiss`: told when words on the
 * first page found no video (with the showcase the search was within, if any, and whether programmes
 * answer beside it), for the owner's list of searches that found nothing (decision 034).
 */
export async function searchPage(
  db: Db,
  query: LibraryFilters & { page: number },
  onMiss?: (where: { showcaseId: string | null; programmes: boolean }) => void,
): Promise<LibraryPage> {
  const scope = await resolveScope(db, query.showcase);
  const words = searchWords(query.q);
  if (!scope || nothingToFind(query.q)) return pageOf(null, [], query.page, 0);
  const { rows, total } = await sortedVideos(
    db,
    { words, scope, price: query.price },
    { limit: LIBRARY_PAGE_SIZE, offset: (query.page - 1) * LIBRARY_PAGE_SIZE, withTotal: true },
  );
  if (onMiss && words.length > 0 && query.page === 1 && !total)
    onMiss({ showcaseId: scope.kind === 'showcase' ? scope.id : null, programmes: scope.kind !== 'none' });
  return pageOf(null, rows, query.page, total ?? 0);
}

function pageOf(
  showcase: ShowcaseSummary | null,
  rows: SortedRow[],
  page: number,
  total: number,
): LibraryPage {
  return {
    showcase,
    videos: rows.map(publicVideo),
    page,
    // The pager links no further than a page may go.
    pageCount: Math.min(LIBRARY_MAX_PAGE, Math.max(1, Math.ceil(total / LIBRARY_PAGE_SIZE))),
    total,
  };
}
