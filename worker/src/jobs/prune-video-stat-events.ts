import { sql } from 'drizzle-orm';
import type { JobHandler } from '../context.ts';

/** Applied rows are kept this long (to look into a miscount), then deleted. */
export const APPLIED_EVENTS_KEPT_MS = 24 * 3600_000;
// Bounded so each statement stays a short transaction on a big backlog.
const BATCH = 10_000;

/**
 * Deletes view/download events the counters already hold (applied_at set) once they are older than
 * APPLIED_EVENTS_KEPT_MS. Unapplied rows are never touched, so nothing uncounted is lost; running it
 * twice deletes nothing more.
 */
export const pruneVideoStatEvents: JobHandler<'prune-video-stat-events'> = async (_payload, { db }) => {
  const before = new Date(Date.now() - APPLIED_EVENTS_KEPT_MS);
  let deleted = 0;
  for (;;) {
    const result = await db.execute(sql`
      delete from video_stat_events where id in (
        select id from video_stat_events where applied_at < ${before} limit ${BATCH}
      )`);
    deleted += result.rowCount ?? 0;
    if ((result.rowCount ?? 0) < BATCH) break;
  }
  return deleted > 0 ? { status: 'done', deleted } : 'skipped';
};
