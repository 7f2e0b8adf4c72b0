import { sql } from 'drizzle-orm';
import type { Db } from '@app/shared/db';
import { SEARCH_MISS_DAYS } from '@app/shared/privacy';
import type { SearchMissLine, SearchMissList } from '@app/shared/schemas';

/** Lines shown at most; the answer says when there are more. */
export const SEARCH_MISS_LINES = 200;

/**
 * GET /api/admin/search-misses: the searches of the kept days that found nothing (written by the api,
 * `search-miss-log.ts`), summed over the days per words, source and showcase; the last day
 * asked first, then the most asked. The day range reads the table's unique key, which starts with the day.
 */
export async function searchMissList(db: Db): Promise<SearchMissList> {
  const { rows } = await db.execute<SearchMissLine>(sql`
    select m.query, m.source, m.showcase_id as "showcaseId", s.name as "showcaseName",
      sum(m.count)::int as count, max(m.day)::text as "lastDay"
    from search_misses m left join showcases s on s.id = m.showcase_id
    where m.day >= (now() at time zone 'Pacific/Auckland')::date - ${SEARCH_MISS_DAYS}::int
    group by m.query, m.source, m.showcase_id, s.name
    order by "lastDay" desc, count desc, m.query, m.source, s.name nulls first, m.showcase_id
    limit ${SEARCH_MISS_LINES + 1}`);
  return {
    misses: rows.slice(0, SEARCH_MISS_LINES),
    more: rows.length > SEARCH_MISS_LINES,
    limit: SEARCH_MISS_LINES,
  };
}
