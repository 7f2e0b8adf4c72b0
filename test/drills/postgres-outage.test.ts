// Drill 3: PostgreSQL goes away under a running api and worker, then comes back. The api answers
// 503 JSON meanwhile and recovers by itself; the worker's jobs fail, retry, and complete.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { videos, videoStatEvents } from '@app/shared/db';
import { statBatch } from '@app/shared/queue';
import { TEST_ADMIN_PASSWORD } from '../support/test-env.ts';
import { startApi, startWorker, type RunningApi, type RunningProcess } from '../support/processes.ts';
import { startOutageProxy, type OutageProxy } from '../support/tcp-proxy.ts';
import { createVideo } from '../support/factories.ts';
import { useTestWorld } from '../support/world.ts';
import { expectErrorLogs } from '../support/guards.ts';

const { env, producer } = useTestWorld({ producer: true });
// A request in flight when the database goes is answered 503 and logged as the error it is.
expectErrorLogs(
  /Connection terminated|ECONNREFUSED|ECONNRESET|EPIPE|timeout exceeded when trying to connect|not queryable/,
);
let proxy: OutageProxy;
let api: RunningApi;
let worker: RunningProcess;

beforeAll(async () => {
  const direct = new URL(env.env.DATABASE_URL!);
  proxy = await startOutageProxy({ host: direct.hostname, port: Number(direct.port || 5432) });
  const throughProxy = { ...env.env, DATABASE_URL: proxy.url(env.env.DATABASE_URL!) };
  [api, worker] = await Promise.all([startApi(throughProxy), startWorker(throughProxy)]);
});
afterAll(async () => {
  await Promise.all([api?.stop(), worker?.stop()]);
  await proxy?.close();
});

async function login(): Promise<string> {
  const response = await fetch(`${api.url}/api/admin/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: api.url },
    body: JSON.stringify({ password: TEST_ADMIN_PASSWORD }),
  });
  expect(response.status).toBe(204);
  return response.headers.get('set-cookie')!.split(';')[0]!;
}

describe('a PostgreSQL outage', () => {
  it('gets 503 JSON from the api while it lasts, and the api recovers by itself', async () => {
    const cookie = await login();
    const session = () => fetch(`${api.url}/api/admin/session`, { headers: { Cookie: cookie } });
    expect(await (await session()).json()).toEqual({ authenticated: true });

    proxy.down();
    const during = await Promise.all([
      fetch(`${api.url}/readyz`),
      fetch(`${api.url}/api/admin/jobs`, { headers: { Cookie: cookie } }),
    ]);
    for (const response of during) {
      expect(response.status).toBe(503);
      expect(response.headers.get('content-type')).toMatch(/json/);
      const body = (await response.json()) as Record<string, unknown>;
      expect(JSON.stringify(body)).not.toMatch(/at .*\.ts|ECONNREFUSED|select /i);
    }
    expect((await fetch(`${api.url}/healthz`)).status).toBe(200);

    proxy.up();
    await expect.poll(async () => (await fetch(`${api.url}/readyz`)).status, { timeout: 15_000 }).toBe(200);
    expect(await (await session()).json()).toEqual({ authenticated: true });
    expect(api.child.exitCode).toBeNull();
  });

  it("fails the worker's jobs while it lasts, then retries them to completion", async () => {
    const video = await createVideo(env.database.db);
    await env.database.db
      .insert(videoStatEvents)
      .values(Array.from({ length: 5 }, () => ({ videoId: video.id, kind: 'view' as const })));

    proxy.down();
    const job = await producer.enqueue('count-video-stat', { batch: statBatch() });
    const queue = producer.queue('count-video-stat');
    await expect
      .poll(async () => (await queue.getJob(job.jobId))?.attemptsMade ?? 0, { timeout: 15_000 })
      .toBeGreaterThanOrEqual(1);
    proxy.up();

    await expect
      .poll(async () => (await queue.getJob(job.jobId))?.finishedOn !== undefined, { timeout: 30_000 })
      .toBe(true);
    const finished = await queue.getJob(job.jobId);
    expect(await finished!.getState()).toBe('completed');
    const [row] = await env.database.db.select().from(videos).where(eq(videos.id, video.id));
    expect(row!.views).toBe(5);
    expect(worker.child.exitCode).toBeNull();
  });
});
