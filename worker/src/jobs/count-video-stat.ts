import { sql } from 'drizzle-orm';
import type { JobHandler } from '../context.ts';

// Bounded so one run stays a short transaction even after a long Redis outage.
const BATCH = 5_000;

/**
 * Applies unapplied view, download and visit events to the video counters in a single statement: rows are
 * claimed with SKIP LOCKED, marked applied and summed in the same transaction, so concurrent runs,
 * retries and a crash at any point can neither lose nor double an increment.
 */
export const countVideoStat: JobHandler<'count-video-stat'> = async (_payload, { db }) => {
  let applied = 0;
  for (;;) {
    const result = await db.execute<{ applied: number }>(sql`
      with claimed as (
        select id from video_stat_events
        where applied_at is null
        order by created_at
        limit ${BATCH}
        for update skip locked
      ), marked as (
        update video_stat_events e set applied_at = now()
        from claimed where e.id = claimed.id
        returning e.video_id, e.kind
      ), totals as (
        select video_id,
               count(*) filter (where kind = 'view')::int as views,
               count(*) filter (where kind = 'download')::int as downloads,
               count(*) filter (where kind = 'visit')::int as visits
        from marked group by video_id
      ), bumped as (
        update videos v
        set views = v.views + t.views, downloads = v.downloads + t.downloads, visits = v.visits + t.visits
        from totals t where v.id = t.video_id
        returning v.id
      )
      select (select count(*) from marked)::int as applied`);
    const count = result.rows[0]?.applied ?? 0;
    applied += count;
    if (count < BATCH) break;
  }
  return applied > 0 ? { status: 'done', applied } : 'skipped';
};
