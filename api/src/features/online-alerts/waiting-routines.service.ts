import { sql } from 'drizzle-orm';
import type { Db } from '@app/shared/db';
import { onlineVideoV } from '@app/shared/online-alerts';
import type { WaitingRoutine, WaitingRoutineList } from '@app/shared/schemas';

/** Routines listed at most; the answer says when more are awaited. */
export const WAITING_ROUTINE_LINES = 200;

/**
 * GET /api/admin/online-alerts/waiting: which routines to put online first. A confirmed request for a
 * dancer counts on each of her routines, since any of them going online answers it. Routines already
 * online (a visitor can buy a video of them) are left out; confirmed requests are few (each is deleted
 * once answered or after 90 days), so this reads them all and groups by routine.
 */
export async function waitingRoutineList(db: Db): Promise<WaitingRoutineList> {
  const { rows } = await db.execute<WaitingRoutine>(sql`
    with waiting as (
      select a.entry_id, a.confirmed_at from online_alerts a
      where a.confirmed_at is not null and a.entry_id is not null
      union all
      select ed.entry_id, a.confirmed_at from online_alerts a
        join programme_entry_dancers ed on ed.dancer_id = a.dancer_id
      where a.confirmed_at is not null and a.dancer_id is not null
    )
    select e.id as "entryId", s.id as "showcaseId", s.name as "showcaseName",
      e.entry_number as "entryNumber", e.section, e.title, st.name as studio,
      count(*)::int as waiting, min(w.confirmed_at) as since,
      exists (select 1 from videos v where v.entry_id = e.id) as "hasVideo"
    from waiting w
      join programme_entries e on e.id = w.entry_id
      join showcases s on s.id = e.showcase_id
      left join programme_studios st on st.id = e.studio_id
    where not (s.published and exists (select 1 from videos v where v.entry_id = e.id and ${onlineVideoV}))
    group by e.id, s.id, st.name
    order by waiting desc, since, s.name, e.entry_sort, e.entry_number
    limit ${WAITING_ROUTINE_LINES + 1}`);
  return {
    routines: rows
      .slice(0, WAITING_ROUTINE_LINES)
      .map((row) => ({ ...row, since: new Date(row.since).toISOString() })),
    more: rows.length > WAITING_ROUTINE_LINES,
    limit: WAITING_ROUTINE_LINES,
  };
}
