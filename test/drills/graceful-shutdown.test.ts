// Drill 5: SIGTERM under load. The api finishes the requests it has accepted and exits within 10 s;
// the worker finishes the job in hand, leaves the rest queued for the next worker, and exits in time.
import http from 'node:http';
import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { videos, videoStatEvents } from '@app/shared/db';
import { startApi, startWorker, type RunningProcess } from '../support/processes.ts';
import { createPurchase, createVideo } from '../support/factories.ts';
import { useTestWorld } from '../support/world.ts';

const METRICS_TOKEN = 'graceful-shutdown-drill';
const { env, producer } = useTestWorld({ producer: true, env: { METRICS_TOKEN } });
// Stopped in afterAll too, so a failing assertion never leaves a process running.
const started: RunningProcess[] = [];
afterAll(() => Promise.all(started.map((process) => process.stop('SIGKILL'))));

describe('SIGTERM under load', () => {
  it('lets the api answer every request it accepted, then exit 0 within 10 s', async () => {
    const video = await createVideo(env.database.db);
    const purchase = await createPurchase(env.database.db, { videoId: video.id });
    const api = await startApi(env.env);
    started.push(api);
    const { port } = new URL(api.url);
    const waitingPurchaseRequests = async () => {
      const response = await fetch(`${api.url}/metrics`, {
        headers: { Authorization: `Bearer ${METRICS_TOKEN}` },
      });
      const gauge = /^purchase_status_requests_waiting (\d+)$/m.exec(await response.text());
      return Number(gauge?.[1]);
    };
    // A buyer's page waiting up to 25 s for its sale: shutdown answers it at once, as it stands.
    const held = fetch(`${api.url}/api/purchases/${purchase.checkoutSessionId}?wait=25`).then(
      async (response) => ({ status: response.status, body: (await response.json()) as unknown }),
    );
    // Requests whose headers the server has read but whose bodies are still arriving: in flight for
    // sure. The server's "100 Continue" proves it has read a request's headers; without that proof a
    // busy CI machine may not have accepted a connection yet when the signal lands, and a connection
    // still in the listen backlog is rightly refused, not an accepted request.
    const body = JSON.stringify({ videoId: 'x', password: 'y'.repeat(2_000) });
    const requests = Array.from({ length: 50 }, () => {
      const request = http.request({
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/api/no-such-endpoint',
        headers: {
          'Content-Type': 'application/json',
          'Content-Length': Buffer.byteLength(body),
          Expect: '100-continue',
        },
      });
      request.flushHeaders();
      const headersRead = new Promise<void>((resolve) => request.on('continue', resolve));
      const answered = new Promise<number | string>((resolve) => {
        request.on('response', (response) => {
          response.resume();
          response.on('end', () => resolve(response.statusCode!));
        });
        request.on('error', (error) => resolve(`failed: ${error.message}`));
      });
      return { request, headersRead, answered };
    });
    await Promise.all(requests.map(({ headersRead }) => headersRead));
    await expect.poll(waitingPurchaseRequests, { timeout: 10_000, interval: 20 }).toBe(1);
    for (const { request } of requests) request.write(body.slice(0, 100));

    const signalledAt = Date.now();
    const exitCode = api.stop('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 300));
    for (const { request } of requests) request.end(body.slice(100));

    const statuses = await Promise.all(requests.map(({ answered }) => answered));
    expect(statuses.filter((status) => status !== 404)).toEqual([]);
    expect(await held).toMatchObject({ status: 200, body: { status: 'pending', videoId: video.id } });
    expect(await exitCode).toBe(0);
    expect(Date.now() - signalledAt).toBeLessThan(10_000);
  });

  it(
    'lets the worker finish its job in hand and hand the rest to the next worker',
    { timeout: 90_000 },
    async () => {
      const video = await createVideo(env.database.db);
      const events = await env.database.db
        .insert(videoStatEvents)
        .values(Array.from({ length: 2_000 }, () => ({ videoId: video.id, kind: 'download' as const })))
        .returning({ id: videoStatEvents.id });
      const queue = producer.queue('count-video-stat');
      await queue.addBulk(
        events.map(({ id }) => ({
          name: 'count-video-stat',
          data: { eventId: id },
          opts: { jobId: `stat-${id}` },
        })),
      );

      const first = await startWorker(env.env);
      started.push(first);
      await expect
        .poll(() => queue.getCompletedCount(), { timeout: 20_000, interval: 20 })
        .toBeGreaterThan(0);
      const signalledAt = Date.now();
      expect(await first.stop('SIGTERM')).toBe(0);
      expect(Date.now() - signalledAt).toBeLessThan(10_000);
      expect(await queue.getActiveCount()).toBe(0);

      const second = await startWorker(env.env);
      started.push(second);
      const unfinished = async () => {
        // Not 'delayed': the sweep's next scheduled run waits there.
        const counts = await queue.getJobCounts('waiting', 'active', 'prioritized', 'failed');
        return Object.values(counts).reduce((sum, count) => sum + count, 0);
      };
      await expect.poll(unfinished, { timeout: 60_000 }).toBe(0);
      await second.stop();
      const [row] = await env.database.db.select().from(videos).where(eq(videos.id, video.id));
      expect(row!.downloads).toBe(events.length);
    },
  );
});
