import { sql } from 'drizzle-orm';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { searchMisses } from '@app/shared/db';
import { searchMissListSchema, type SearchMissList } from '@app/shared/schemas';
import { createShowcase } from '../../../../test/support/factories.ts';
import { useTestWorld } from '../../../../test/support/world.ts';
import { SEARCH_MISS_LINES } from './search-misses.service.ts';

// The owner's list of searches that found nothing: summed per words, source and showcase over the
// kept 90 days, the last day asked first, then the most asked; at most 200 lines.

const { env, api, agent } = useTestWorld({ admin: true });

const list = async (): Promise<SearchMissList> =>
  searchMissListSchema.strict().parse((await agent.get('/api/admin/search-misses').expect(200)).body);

/** Misses as the api writes them, `daysAgo` counted back from New Zealand's today. */
async function miss(
  query: string,
  source: 'library' | 'programme',
  showcaseId: string | null,
  daysAgo: number,
  count: number,
) {
  await env.database.db.execute(sql`
    insert into search_misses (day, source, showcase_id, query, count)
    values ((now() at time zone 'Pacific/Auckland')::date - ${daysAgo}::int, ${source}, ${showcaseId},
      ${query}, ${count})`);
}

const nzDaysAgo = async (days: number) => {
  const { rows } = await env.database.db.execute<{ day: string }>(
    sql`select ((now() at time zone 'Pacific/Auckland')::date - ${days}::int)::text as day`,
  );
  return rows[0]!.day;
};

describe('GET /api/admin/search-misses', () => {
  it('refuses a visitor with 401', async () => {
    const response = await request(api.app).get('/api/admin/search-misses').expect(401);
    expect(response.body.code).toBe('unauthorized');
  });

  it('answers an empty list when nothing was missed', async () => {
    await env.database.db.delete(searchMisses);
    expect(await list()).toEqual({ misses: [], more: false, limit: SEARCH_MISS_LINES });
  });

  it('sums each query per source and showcase over 90 days, newest first, then the most asked', async () => {
    const { db } = env.database;
    await db.delete(searchMisses);
    const nationals = await createShowcase(db, { name: 'Nationals 2026' });
    const regionals = await createShowcase(db, { name: 'Regionals 2026' });
    // One query, asked on three days within one showcase's programme: one line, 3 + 2 + 1.
    await miss('aroha smyth', 'programme', nationals.id, 2, 3);
    await miss('aroha smyth', 'programme', nationals.id, 10, 2);
    await miss('aroha smyth', 'programme', nationals.id, 90, 1);
    // The same words in the library across every competition, and within another showcase: lines apart.
    await miss('aroha smyth', 'library', null, 2, 1);
    await miss('aroha smyth', 'programme', regionals.id, 5, 4);
    await miss('firefly', 'library', nationals.id, 0, 1);
    await miss('storm troupe', 'library', null, 2, 7);
    // Older than the 90 days kept (the retention sweep may not have run yet): left out.
    await miss('old words', 'library', null, 91, 50);

    const answer = await list();
    expect(answer.more).toBe(false);
    expect(answer.misses).toEqual([
      {
        query: 'firefly',
        source: 'library',
        showcaseId: nationals.id,
        showcaseName: 'Nationals 2026',
        count: 1,
        lastDay: await nzDaysAgo(0),
      },
      {
        query: 'storm troupe',
        source: 'library',
        showcaseId: null,
        showcaseName: null,
        count: 7,
        lastDay: await nzDaysAgo(2),
      },
      {
        query: 'aroha smyth',
        source: 'programme',
        showcaseId: nationals.id,
        showcaseName: 'Nationals 2026',
        count: 6,
        lastDay: await nzDaysAgo(2),
      },
      {
        query: 'aroha smyth',
        source: 'library',
        showcaseId: null,
        showcaseName: null,
        count: 1,
        lastDay: await nzDaysAgo(2),
      },
      {
        query: 'aroha smyth',
        source: 'programme',
        showcaseId: regionals.id,
        showcaseName: 'Regionals 2026',
        count: 4,
        lastDay: await nzDaysAgo(5),
      },
    ]);
  });

  it(`shows at most ${SEARCH_MISS_LINES} lines and says when there are more`, async () => {
    const { db } = env.database;
    await db.delete(searchMisses);
    await db.execute(sql`
      insert into search_misses (day, source, query, count)
      select (now() at time zone 'Pacific/Auckland')::date, 'library', 'word ' || n, n
      from generate_series(1, ${SEARCH_MISS_LINES}) n`);
    const exactly = await list();
    expect(exactly.misses).toHaveLength(SEARCH_MISS_LINES);
    expect(exactly.more).toBe(false);
    // Same day: the most asked first.
    expect(exactly.misses.slice(0, 2).map((line) => line.query)).toEqual([
      `word ${SEARCH_MISS_LINES}`,
      `word ${SEARCH_MISS_LINES - 1}`,
    ]);

    await miss('one more', 'library', null, 1, 1);
    const over = await list();
    expect(over.misses).toHaveLength(SEARCH_MISS_LINES);
    expect(over.more).toBe(true);
    // The oldest line is the one left out.
    expect(over.misses.map((line) => line.query)).not.toContain('one more');
  });
});
