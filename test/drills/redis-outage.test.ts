// Drill 2: Redis goes away for a while (8 s: long enough for every client to notice, retry and give up a
// few times) while visitors read pages, send enquiries and watch videos.
// Reads keep working, nothing is lost, /readyz tells the truth, and once Redis is back every owner
// e-mail goes out once and every view is counted once, without restarting anything.
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contacts, videos, videoStatEvents } from '@app/shared/db';
import { createStorage } from '@app/shared/storage';
import { startOutageProxy, type OutageProxy } from '../support/tcp-proxy.ts';
import { createVideo } from '../support/factories.ts';
import { TEST_REDIS_URL } from '../support/services.ts';
import { useTestWorld } from '../support/world.ts';

const OUTAGE_MS = 8_000;
const SWEEP_INTERVAL_MS = 1_000;

/** Redis, for the api and worker, reached through a proxy this file can take down. */
let proxy: OutageProxy;
beforeAll(async () => {
  const redis = new URL(TEST_REDIS_URL);
  proxy = await startOutageProxy({ host: redis.hostname, port: Number(redis.port || 6379) });
});
afterAll(() => proxy.close());
const { env, smtp, api, worker } = useTestWorld({
  smtp: true,
  processes: { api: true, worker: true },
  env: () => ({ SWEEP_INTERVAL_MS: String(SWEEP_INTERVAL_MS), REDIS_URL: proxy.url(TEST_REDIS_URL) }),
});

const post = (path: string, body: object) =>
  fetch(`${api.url}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });

describe('a Redis outage', () => {
  it('loses nothing and recovers by itself', { timeout: 120_000 }, async () => {
    const key = `videos/${randomUUID()}.mp4`;
    await createStorage(env.config).put(key, Buffer.from('clip'), 'video/mp4');
    const video = await createVideo(env.database.db, { awsKey: key });
    expect((await fetch(`${api.url}/readyz`)).status).toBe(200);

    proxy.down();
    const outageEnds = Date.now() + OUTAGE_MS;
    expect((await fetch(`${api.url}/readyz`)).status).toBe(503);
    let sent = 0;
    let views = 0;
    while (Date.now() < outageEnds) {
      for (const path of ['/api/events', '/api/videos', '/api/portfolio', '/']) {
        expect((await fetch(`${api.url}${path}`)).status, path).toBe(200);
      }
      const contact = await post('/api/contacts', {
        firstName: `Visitor${sent}`,
        lastName: 'Outage',
        email: `visitor${sent}@example.nz`,
        message: 'Sent while Redis was down',
      });
      expect(contact.status).toBe(201);
      sent++;
      const stream = await post(`/api/video-stream/${video.id}`, {});
      expect(stream.status).toBe(200);
      views++;
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
    expect((await fetch(`${api.url}/readyz`)).status).toBe(503);
    expect(await env.database.db.$count(contacts)).toBe(sent);
    expect(await env.database.db.$count(videoStatEvents)).toBe(views);

    proxy.up();
    await expect.poll(async () => (await fetch(`${api.url}/readyz`)).status, { timeout: 20_000 }).toBe(200);
    await expect
      .poll(
        async () => (await env.database.db.select().from(videos).where(eq(videos.id, video.id)))[0]!.views,
        { timeout: 30_000 },
      )
      .toBe(views);
    await expect.poll(() => smtp.messages.length, { timeout: 30_000 }).toBe(sent);
    // A few more sweeps: still exactly one e-mail per enquiry and one count per view.
    await new Promise((resolve) => setTimeout(resolve, 3 * SWEEP_INTERVAL_MS));
    expect(smtp.messages.length).toBe(sent);
    expect(new Set(smtp.messages.map((mail) => mail.subject)).size).toBe(sent);
    expect((await env.database.db.select().from(videos).where(eq(videos.id, video.id)))[0]!.views).toBe(
      views,
    );
    expect(api.child.exitCode).toBeNull();
    expect(worker.child.exitCode).toBeNull();
  });
});
