import { randomUUID } from 'node:crypto';
import type { RequestListener } from 'node:http';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createLogger } from '@app/shared/logger';
import { createStorage } from '@app/shared/storage';
import { eq } from 'drizzle-orm';
import { events, portfolioItems, videos } from '@app/shared/db';
import { markPublicContentChanged, publicContentVersionKey } from '@app/shared/cache-version';
import { TEST_ADMIN_PASSWORD } from '../../../test/support/test-env.ts';
import { createEvent, createPortfolioItems, createVideo } from '../../../test/support/factories.ts';
import { createRequestHandler } from '../app.ts';
import { Kept } from './public-cache.ts';
import { closeDeps, createDeps, type Deps } from '../deps.ts';
import { useTestWorld } from '../../../test/support/world.ts';

// Two api replicas over one database and one Redis, each with the request handler index.ts serves.

const { env } = useTestWorld();
const replicas: Array<{ deps: Deps; handler: RequestListener }> = [];

beforeAll(async () => {
  for (const name of ['api-a', 'api-b']) {
    const deps = createDeps(env.config, createLogger({ name, level: 'silent' }));
    replicas.push({ deps, handler: createRequestHandler(deps) });
  }
});
afterAll(async () => {
  await Promise.all(replicas.map(({ deps }) => closeDeps(deps)));
});

const titles = (body: Array<{ title: string }>) => body.map((event) => event.title);

async function login(handler: RequestListener) {
  const agent = request.agent(handler);
  await agent.post('/api/admin/login').send({ password: TEST_ADMIN_PASSWORD }).expect(204);
  return agent;
}

describe('the kept public lists', () => {
  it('answers from memory until the content changes, then every replica reads afresh', async () => {
    const [a, b] = replicas as [(typeof replicas)[number], (typeof replicas)[number]];
    await createEvent(env.database.db, { title: 'Kept Festival', date: '2027-02-01' });
    await request(a.handler).get('/api/events').expect(200);
    await request(b.handler).get('/api/events').expect(200);

    // Written behind the api's back: both replicas keep answering with the list they read.
    await env.database.db.update(events).set({ title: 'Quietly Renamed' });
    expect(titles((await request(a.handler).get('/api/events').expect(200)).body)).toEqual(['Kept Festival']);
    expect(titles((await request(b.handler).get('/api/events').expect(200)).body)).toEqual(['Kept Festival']);

    // An owner's edit on replica A: B's very next read shows it.
    const [event] = await env.database.db.select().from(events);
    const owner = await login(a.handler);
    const { title: _title, description, date, location, eventType, imageUrl } = event!;
    await owner
      .put(`/api/admin/events/${event!.id}`)
      .send({ title: 'Edited Festival', description, date, location, eventType, imageUrl })
      .expect(200);
    expect(titles((await request(b.handler).get('/api/events').expect(200)).body)).toEqual([
      'Edited Festival',
    ]);
    expect(titles((await request(a.handler).get('/api/events').expect(200)).body)).toEqual([
      'Edited Festival',
    ]);
  });

  it('reads afresh when the worker (or anyone) bumps the version in Redis', async () => {
    const [a] = replicas;
    await createPortfolioItems(env.database.db, 1, { alt: 'First solo' });
    await request(a!.handler).get('/api/portfolio?category=solo').expect(200);
    await createPortfolioItems(env.database.db, 1, { alt: 'Second solo' });
    expect((await request(a!.handler).get('/api/portfolio?category=solo')).body).toHaveLength(1);
    await a!.deps.redis.incr(publicContentVersionKey(env.config.QUEUE_PREFIX));
    expect((await request(a!.handler).get('/api/portfolio?category=solo')).body).toHaveLength(2);
  });

  it('reads afresh after Redis loses the version, even once writes have counted it back up', async () => {
    const [a] = replicas;
    const key = publicContentVersionKey(env.config.QUEUE_PREFIX);
    await createPortfolioItems(env.database.db, 1, { alt: 'Stage one', category: 'stage' });
    await a!.deps.redis.set(key, '3');
    await request(a!.handler).get('/api/portfolio?category=stage').expect(200);
    await createPortfolioItems(env.database.db, 1, { alt: 'Stage two', category: 'stage' });

    // Redis emptied (restart without persistence, FLUSHALL), then three writes: a counter would be at 3 again.
    await a!.deps.redis.del(key);
    for (let write = 0; write < 3; write++)
      await markPublicContentChanged(a!.deps.redis, env.config.QUEUE_PREFIX);
    expect((await request(a!.handler).get('/api/portfolio?category=stage')).body).toHaveLength(2);

    // And a missing key alone is a change, not the version the list was kept under.
    await createPortfolioItems(env.database.db, 1, { alt: 'Stage three', category: 'stage' });
    await a!.deps.redis.del(key);
    expect((await request(a!.handler).get('/api/portfolio?category=stage')).body).toHaveLength(3);
  });

  it('keeps only the canonical address of a list, so made-up query strings cannot fill memory', async () => {
    const [a] = replicas;
    await request(a!.handler).get('/api/portfolio?category=group&x=1').expect(200);
    await createPortfolioItems(env.database.db, 1, { alt: 'Troupe', category: 'group' });
    expect((await request(a!.handler).get('/api/portfolio?category=group&x=1')).body).toHaveLength(1);
  });

  it('serves a kept list with the same headers, an ETag that earns a 304, and gzip when accepted', async () => {
    const [a] = replicas;
    await env.database.db.delete(portfolioItems);
    await createPortfolioItems(env.database.db, 30, { alt: 'A rather long description of a solo picture' });
    await a!.deps.publicCache.changed();
    const fromDatabase = await request(a!.handler).get('/api/portfolio').expect(200);
    const requestId = randomUUID();
    const fromMemory = await request(a!.handler)
      .get('/api/portfolio')
      .set('X-Request-Id', requestId)
      .expect(200);

    expect(fromMemory.body).toEqual(fromDatabase.body);
    expect(fromMemory.headers['x-request-id']).toBe(requestId);
    // A request id that is not a UUID is not written into the logs: another takes its place.
    const made = await request(a!.handler)
      .get('/api/portfolio')
      .set('X-Request-Id', 'not-a-uuid; user=admin')
      .expect(200);
    expect(made.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    for (const header of [
      'etag',
      'cache-control',
      'content-type',
      'content-security-policy',
      'x-content-type-options',
      'strict-transport-security',
    ]) {
      expect(fromMemory.headers[header], header).toBe(fromDatabase.headers[header]);
    }
    expect(fromMemory.headers['cache-control']).toBe('public, no-cache');

    await request(a!.handler)
      .get('/api/portfolio')
      .set('If-None-Match', fromDatabase.headers.etag!)
      .expect(304);
    await request(a!.handler).get('/api/portfolio').set('If-None-Match', '"something-else"').expect(200);

    const zipped = await request(a!.handler).get('/api/portfolio').set('Accept-Encoding', 'gzip').expect(200);
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.headers['vary']).toBe('Accept-Encoding');
    expect(zipped.body).toEqual(fromDatabase.body);
  });

  it('keeps a video for its stream links only until an owner edits it on any replica', async () => {
    const [a, b] = replicas as [(typeof replicas)[number], (typeof replicas)[number]];
    const video = await createVideo(env.database.db, { title: 'Kept Recital' });
    // Stored: a protected video needs its file to stay published.
    await createStorage(env.config).put(video.awsKey, Buffer.from('recital'), 'video/mp4');
    const stream = (replica: typeof a) =>
      request(replica.handler).post(`/api/video-stream/${video.id}`).send({});
    await stream(b).expect(200);

    // The owner protects it on A: B refuses the next stream without the password.
    const owner = await login(a.handler);
    await owner
      .put(`/api/admin/videos/${video.id}`)
      .send({ passwordProtected: true, password: 'recital-2027' })
      .expect(200);
    expect((await stream(b).expect(401)).body).toEqual({
      message: 'Password required',
      code: 'unauthorized',
    });
    await request(b.handler)
      .post(`/api/video-stream/${video.id}`)
      .send({ password: 'recital-2027' })
      .expect(200);

    // Deleted on A: gone on B at once.
    await owner.delete(`/api/admin/videos/${video.id}`).expect(200);
    await stream(b).expect(404);
  });

  it('keeps the first page of a search until the content changes; later pages and made-up parameters are read afresh', async () => {
    const [a, b] = replicas as [(typeof replicas)[number], (typeof replicas)[number]];
    const { db } = env.database;
    // The duo is older: the first page of one holds the solo, the next page the duo.
    await createVideo(db, { title: 'Saltarello Duo', createdAt: new Date('2026-01-01T00:00:00Z') });
    await createVideo(db, { title: 'Saltarello Solo', createdAt: new Date('2026-01-02T00:00:00Z') });
    const search = (replica: typeof a, path: string) =>
      request(replica.handler)
        .get(path)
        .expect(200)
        .then((answer) => (answer.body as Array<{ title: string }>).map((video) => video.title).sort());
    expect(await search(a, '/api/videos?q=saltarello')).toEqual(['Saltarello Duo', 'Saltarello Solo']);
    const first = await request(a.handler).get('/api/videos?q=saltarello&limit=1').expect(200);
    const next = /<([^>]+)>; rel="next"/.exec(first.headers.link!)![1]!;

    // Written behind the api's back: the kept first pages stay, the rest is read again.
    await db.update(videos).set({ title: 'Saltarello Trio' }).where(eq(videos.title, 'Saltarello Duo'));
    expect(await search(a, '/api/videos?q=saltarello')).toEqual(['Saltarello Duo', 'Saltarello Solo']);
    expect(await search(a, '/api/videos?q=saltarello&x=1')).toEqual(['Saltarello Solo', 'Saltarello Trio']);
    expect(await search(a, next)).toEqual(['Saltarello Trio']);

    // Any write that bumps the content version: every replica searches afresh.
    await b.deps.publicCache.changed();
    expect(await search(a, '/api/videos?q=saltarello')).toEqual(['Saltarello Solo', 'Saltarello Trio']);
  });
  it('reads a list once for the requests that ask for it while it is being read', async () => {
    const [a] = replicas as [(typeof replicas)[number]];
    await createVideo(env.database.db, { title: 'Galliard Solo' });
    await a.deps.publicCache.changed();
    const queries = vi.spyOn(a.deps.pool, 'query');
    try {
      const answers = await Promise.all(
        Array.from({ length: 20 }, () => request(a.handler).get('/api/videos?q=galliard').expect(200)),
      );
      expect(new Set(answers.map((answer) => answer.headers.etag)).size).toBe(1);
      expect(answers.every((answer) => answer.body[0]?.title === 'Galliard Solo')).toBe(true);
      // One search: its tsquery, then its page.
      expect(queries.mock.calls.length).toBeLessThanOrEqual(2);
    } finally {
      queries.mockRestore();
    }
  });
});

describe('the kept copies', () => {
  it('drop the oldest once their bytes pass the budget, and never keep one larger than it', () => {
    const kept = new Kept<string>(100);
    kept.set('a', 'first', 40);
    kept.set('b', 'second', 40);
    kept.set('c', 'third', 40);
    expect([kept.get('a'), kept.get('b'), kept.get('c')]).toEqual([undefined, 'second', 'third']);
    expect(kept.bytes).toBe(80);
    kept.set('b', 'second again', 10);
    expect(kept.bytes).toBe(50);
    kept.set('huge', 'too large', 101);
    expect(kept.get('huge')).toBeUndefined();
    expect(kept.bytes).toBe(50);
    kept.delete('c');
    kept.clear();
    expect(kept.bytes).toBe(0);
  });
});
