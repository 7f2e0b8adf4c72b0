import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { videos } from '@app/shared/db';
import type { TestEnv } from '../../../../test/support/test-env.ts';
import { useTestWorld } from '../../../../test/support/world.ts';
import { createShowcase } from '../../../../test/support/factories.ts';
import { RANKED_MATCHES } from './library.service.ts';
import { LIBRARY_MAX_PAGE } from '@app/shared/library';

// Search at scale (decision 020, 2026-11-25 addendum): one weighted document per video that holds its
// showcase's name, and relevance over the newest RANKED_MATCHES matches with the older ones after.

let showcaseId: string;
const OLDER = 30;

const { api, agent } = useTestWorld({ admin: true, seed: seedRoutines });

async function seedRoutines(env: TestEnv) {
  const { db } = env.database;
  ({ id: showcaseId } = await createShowcase(db, { name: 'Kōwhai Festival', slug: 'kowhai-festival' }));
  // RANKED_MATCHES + OLDER routines mention "tarantella": every tenth in its title, the others only in
  // the description. The oldest OLDER ones all have it in their titles, yet come last.
  const total = RANKED_MATCHES + OLDER;
  const rows: Array<typeof videos.$inferInsert> = Array.from({ length: total }, (_, index) => {
    const inTitle = index < OLDER || index % 10 === 0;
    return {
      title: inTitle ? `Routine ${index} - Tarantella Solo` : `Routine ${index} - Solo`,
      description: inTitle ? 'A solo' : 'A solo to a tarantella',
      tags: ['Solo'],
      showcaseId,
      awsKey: `videos/tarantella-${index}.mp4`,
      createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, index)),
    };
  });
  await db.insert(videos).values(rows);
}

const nextLink = (link: string | undefined) => /<([^>]+)>; rel="next"/.exec(link ?? '')?.[1];
const titleNumber = (video: { title: string }) => Number(/Routine (\d+)/.exec(video.title)![1]);

describe('relevance over the newest matches', () => {
  it('ranks the newest matches, then the older ones newest first, and the cursor runs through all', async () => {
    const seen: Array<{ title: string }> = [];
    let link: string | undefined = '/api/videos?q=tarantella&limit=120';
    while (link) {
      const page = await request(api.app).get(link).expect(200);
      seen.push(...(page.body as Array<{ title: string }>));
      link = nextLink(page.headers.link);
    }
    const numbers = seen.map(titleNumber);
    expect(new Set(numbers).size).toBe(RANKED_MATCHES + OLDER);
    // Title matches of the ranked (newest) ones first, newest first among equals.
    const titled = numbers.slice(0, RANKED_MATCHES / 10);
    expect(titled.every((number) => number >= OLDER && number % 10 === 0)).toBe(true);
    expect(titled).toEqual([...titled].sort((a, b) => b - a));
    // The older matches follow the ranked ones, newest first, whatever their relevance.
    expect(numbers.slice(RANKED_MATCHES)).toEqual(
      Array.from({ length: OLDER }, (_, index) => OLDER - 1 - index),
    );
  });

  it('numbers the pages of the same order, and counts every match', async () => {
    const first = await request(api.app).get('/api/library/search?q=tarantella').expect(200);
    expect(first.body.total).toBe(RANKED_MATCHES + OLDER);
    const pageCount = first.body.pageCount as number;
    const last = await request(api.app).get(`/api/library/search?q=tarantella&page=${pageCount}`).expect(200);
    expect(last.body.videos.map(titleNumber).at(-1)).toBe(0);
  });
});

describe("the showcase's name in the search document", () => {
  it('finds videos by their showcase name, and by its new name once renamed', async () => {
    const count = async (q: string) =>
      ((await request(api.app).get('/api/library/search').query({ q }).expect(200)).body as { total: number })
        .total;
    expect(await count('kowhai tarantella')).toBe(RANKED_MATCHES + OLDER);
    await agent.patch(`/api/admin/showcases/${showcaseId}`).send({ name: 'Pōhutukawa Cup' }).expect(200);
    expect(await count('kowhai')).toBe(0);
    expect(await count('pohutukawa solo')).toBe(RANKED_MATCHES + OLDER);
  });
});

describe('deep pages', () => {
  it('answer a page past the end from the count alone, and refuse pages the pager never reaches', async () => {
    const { db } = api.deps;
    const execute = db.execute.bind(db);
    let queries = 0;
    db.execute = ((...args: Parameters<typeof execute>) => {
      queries += 1;
      return execute(...args);
    }) as typeof db.execute;
    try {
      const past = await request(api.app)
        .get(`/api/library/search?q=tarantella&page=${LIBRARY_MAX_PAGE}`)
        .expect(200);
      expect(past.body).toMatchObject({ videos: [], total: RANKED_MATCHES + OLDER, page: LIBRARY_MAX_PAGE });
      // The search's words, then the count: no page read skipping every match.
      expect(queries).toBe(2);
    } finally {
      db.execute = execute;
    }
    for (const path of [
      `/api/library/search?q=tarantella&page=${LIBRARY_MAX_PAGE + 1}`,
      '/api/library/search?q=tarantella&page=100000',
      `/api/showcases/kowhai-festival/videos?page=${LIBRARY_MAX_PAGE + 1}`,
    ]) {
      const refused = await request(api.app).get(path).expect(400);
      expect(refused.body.message).toContain(`Page must be at most ${LIBRARY_MAX_PAGE}`);
    }
    const showcasePast = await request(api.app)
      .get(`/api/showcases/kowhai-festival/videos?page=500`)
      .expect(200);
    expect(showcasePast.body).toMatchObject({ videos: [], page: 500 });
  });
});
