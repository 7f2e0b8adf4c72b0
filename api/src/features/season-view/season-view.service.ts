import { sql } from 'drizzle-orm';
import type { Db } from '@app/shared/db';
import { SEARCH_MISS_DAYS } from '@app/shared/privacy';
import type { SeasonView } from '@app/shared/schemas';
import { notFound } from '../../http/errors.ts';

// The owner's season view of one showcase (issue 30, decision 034). Each panel is one statement over
// what the api already writes (programme entries, videos and their counters, purchases and their items)
// and the search-miss log; each starts from the showcase's videos (videos_showcase_idx: a few hundred
// rows even in a 50,000-video library) and reaches purchases through purchase_items_video_idx.

/** Routines listed under "top routines". */
const TOP_ROUTINES = 10;
/** Searches that found nothing, most frequent first. */
const SEARCH_MISSES = 30;
/** Sales per day go back at most this far from the last day. */
const SALES_DAYS = 366;

const nzToday = sql`(now() at time zone 'Pacific/Auckland')::date`;

async function entriesAndVideos(db: Db, showcaseId: string) {
  const { rows } = await db.execute<{
    entries: number;
    entriesWithVideo: number;
    entriesNotFilmed: number;
    total: number;
    ready: number;
    processing: number;
    failed: number;
    withoutEntry: number;
    failedVideos: SeasonView['videos']['failedVideos'];
  }>(sql`
    select
      (select count(*)::int from programme_entries e where e.showcase_id = ${showcaseId}) as entries,
      (select count(*)::int from programme_entries e where e.showcase_id = ${showcaseId}
         and exists (select 1 from videos ev where ev.entry_id = e.id)) as "entriesWithVideo",
      -- Marked as not filmed in one of its bulk uploads, and without a video after all.
      (select count(*)::int from programme_entries e where e.showcase_id = ${showcaseId}
         and exists (select 1 from upload_not_filmed n where n.entry_id = e.id)
         and not exists (select 1 from videos ev where ev.entry_id = e.id)) as "entriesNotFilmed",
      count(v.id)::int as total,
      -- A video from before processing existed (no state) plays as it is.
      (count(v.id) filter (where v.processing_state is null or v.processing_state = 'ready'))::int as ready,
      (count(v.id) filter (where v.processing_state in ('queued', 'processing')))::int as processing,
      (count(v.id) filter (where v.processing_state = 'failed'))::int as failed,
      (count(v.id) filter (where v.entry_id is null))::int as "withoutEntry",
      coalesce((
        select json_agg(f) from (
          select id, title, processing_error as reason from videos
          where showcase_id = ${showcaseId} and processing_state = 'failed'
          order by created_at desc, id limit 20) f
      ), '[]'::json) as "failedVideos"
    from videos v where v.showcase_id = ${showcaseId}`);
  const row = rows[0]!;
  return {
    entries: {
      total: row.entries,
      withVideo: row.entriesWithVideo,
      withoutVideo: row.entries - row.entriesWithVideo - row.entriesNotFilmed,
      notFilmed: row.entriesNotFilmed,
    },
    videos: {
      total: row.total,
      ready: row.ready,
      processing: row.processing,
      failed: row.failed,
      withoutEntry: row.withoutEntry,
      failedVideos: row.failedVideos,
    },
  };
}

/** Paid items of the showcase's videos (refunds are no longer 'paid'), their totals and a row per NZ day. */
async function sales(db: Db, showcaseId: string) {
  const { rows } = await db.execute<{
    purchases: number;
    videosSold: number;
    revenueCents: number;
    byDay: SeasonView['salesByDay'];
  }>(sql`
    with sold as (
      select pi.purchase_id, pi.amount_cents,
        (coalesce(p.paid_at, p.created_at) at time zone 'Pacific/Auckland')::date as day
      from videos v
      join purchase_items pi on pi.video_id = v.id
      join purchases p on p.id = pi.purchase_id and p.status = 'paid'
      where v.showcase_id = ${showcaseId}
    ), days as (
      select day, count(distinct purchase_id)::int as purchases, sum(amount_cents)::int as revenue
      from sold group by day
    ), span as (
      select greatest(max(day), ${nzToday}) as last, min(day) as first from sold
    )
    select
      (select count(distinct purchase_id)::int from sold) as purchases,
      (select count(*)::int from sold) as "videosSold",
      (select coalesce(sum(amount_cents), 0)::int from sold) as "revenueCents",
      coalesce((
        select json_agg(json_build_object(
          'day', g.day::date::text,
          'purchases', coalesce(d.purchases, 0),
          'revenueCents', coalesce(d.revenue, 0)) order by g.day)
        from span
        cross join generate_series(greatest(span.first, span.last - ${SALES_DAYS - 1}::int)::timestamp,
                                   span.last::timestamp, interval '1 day') g(day)
        left join days d on d.day = g.day::date
        where span.first is not null
      ), '[]'::json) as "byDay"`);
  const row = rows[0]!;
  return {
    sales: { purchases: row.purchases, videosSold: row.videosSold, revenueCents: row.revenueCents },
    salesByDay: row.byDay,
  };
}

/** Page visits, checkouts started (any outcome; an unexpanded showcase bundle too) and paid purchases. */
async function funnel(db: Db, showcaseId: string): Promise<SeasonView['funnel']> {
  const { rows } = await db.execute<SeasonView['funnel']>(sql`
    with items as (
      select pi.purchase_id from videos v join purchase_items pi on pi.video_id = v.id
      where v.showcase_id = ${showcaseId}
      union
      select pi.purchase_id from purchase_items pi where pi.bundle_showcase_id = ${showcaseId}
    )
    select
      (select coalesce(sum(visits), 0)::int from videos where showcase_id = ${showcaseId}) as visits,
      (select count(*)::int from items) as checkouts,
      (select count(*)::int from items join purchases p on p.id = items.purchase_id
       where p.status = 'paid') as paid`);
  return rows[0]!;
}

/** The showcase's best sellers: revenue, then sales, then visits. */
async function topRoutines(db: Db, showcaseId: string): Promise<SeasonView['topRoutines']> {
  const { rows } = await db.execute<Omit<SeasonView['topRoutines'][number], 'conversion'>>(sql`
    select v.id as "videoId", v.title, v.entry_id as "entryId", e.entry_number as "entryNumber",
      v.visits, coalesce(s.sold, 0)::int as sold, coalesce(s.revenue, 0)::int as "revenueCents"
    from videos v
    left join programme_entries e on e.id = v.entry_id
    left join lateral (
      select count(*) as sold, sum(pi.amount_cents) as revenue
      from purchase_items pi join purchases p on p.id = pi.purchase_id and p.status = 'paid'
      where pi.video_id = v.id
    ) s on true
    where v.showcase_id = ${showcaseId}
    order by "revenueCents" desc, sold desc, v.visits desc, e.entry_sort nulls last, v.title, v.id
    limit ${TOP_ROUTINES}`);
  return rows.map((row) => ({ ...row, conversion: row.visits > 0 ? row.sold / row.visits : null }));
}

/**
 * Searches that found nothing within this showcase, and across the site since it was created, in the
 * days kept; each with the nearest dancer, studio or routine of this programme (trigram word similarity,
 * as "find your dancer" matches), which is most often what was meant.
 */
async function searchMisses(db: Db, showcaseId: string): Promise<SeasonView['searchMisses']> {
  const { rows } = await db.execute<SeasonView['searchMisses'][number]>(sql`
    with misses as (
      select m.query, sum(m.count)::int as count, max(m.day)::text as "lastDay",
        coalesce(sum(m.count) filter (where m.source = 'library'), 0)::int as library,
        coalesce(sum(m.count) filter (where m.source = 'programme'), 0)::int as programme,
        bool_or(m.showcase_id is not null) as "withinShowcase"
      from search_misses m, showcases s
      where s.id = ${showcaseId} and m.day >= ${nzToday} - ${SEARCH_MISS_DAYS}::int
        and (m.showcase_id = s.id
          or (m.showcase_id is null and m.day >= (s.created_at at time zone 'Pacific/Auckland')::date))
      group by m.query
      order by count desc, "lastDay" desc, m.query
      limit ${SEARCH_MISSES}
    )
    select misses.*, case when near.id is null then null else json_build_object(
      'entryId', near.id, 'entryNumber', near.entry_number, 'label', near.label, 'search', near.search)
      end as suggestion
    from misses
    left join lateral (
      select e.id, e.entry_number, x.label, x.search from (
        select ed.entry_id, d.name as label, d.name as search, d.search_key <->> misses.query as distance
        from programme_dancers d join programme_entry_dancers ed on ed.dancer_id = d.id
        where d.showcase_id = ${showcaseId} and d.search_key %> misses.query
        union all
        select e.id, st.name, st.name, st.search_key <->> misses.query
        from programme_studios st join programme_entries e on e.studio_id = st.id
        where st.showcase_id = ${showcaseId} and st.search_key %> misses.query
        union all
        select e.id, concat_ws(': ', nullif(e.section, ''), nullif(e.title, '')),
          coalesce(nullif(e.title, ''), e.section), e.section_key <->> misses.query
        from programme_entries e
        where e.showcase_id = ${showcaseId} and e.section_key %> misses.query
      ) x join programme_entries e on e.id = x.entry_id
      order by x.distance, e.entry_sort, e.entry_number
      limit 1
    ) near on true
    order by misses.count desc, misses."lastDay" desc, misses.query`);
  return rows;
}

/** GET /api/admin/showcases/{id}/season. */
export async function seasonView(db: Db, showcaseId: string): Promise<SeasonView> {
  const { rows } = await db.execute<SeasonView['showcase']>(
    sql`select id, name, slug from showcases where id = ${showcaseId}`,
  );
  const showcase = rows[0];
  if (!showcase) throw notFound('Showcase not found');
  const [counts, sold, path, top, misses] = await Promise.all([
    entriesAndVideos(db, showcaseId),
    sales(db, showcaseId),
    funnel(db, showcaseId),
    topRoutines(db, showcaseId),
    searchMisses(db, showcaseId),
  ]);
  return {
    showcase,
    ...counts,
    ...sold,
    funnel: path,
    topRoutines: top,
    searchMisses: misses,
    searchMissDays: SEARCH_MISS_DAYS,
  };
}
