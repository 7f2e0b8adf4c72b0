import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { asc } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '@app/shared/config';
import { createLogger } from '@app/shared/logger';
import { syncRuns } from '@app/shared/db';
import { SYNC_JOB_ID } from '@app/shared/queue';
import { createTestEnv, type TestEnv } from '../../test/support/test-env.ts';
import { startTestWorker, type TestWorker } from '../../test/support/worker.ts';
import type { JobHandler } from './context.ts';
import { syncOrderLinks } from './jobs/sync-order-links.ts';
import { keepSchedules, restoreSchedules, upsertSchedules } from './schedules.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'stagelight-schedules-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const csv = 'Competition,Date,Order link\nAuckland Cup,x,https://form.example/auckland\n';

/** Two worker replicas on one queue prefix, each noting the sync jobs it processed. */
function startReplicas(env: TestEnv, seen: Array<{ replica: number; jobId: string }>): TestWorker[] {
  return [0, 1].map((replica) => {
    const handler: JobHandler<'sync-order-links'> = (payload, context) => {
      seen.push({ replica, jobId: context.job.id! });
      return syncOrderLinks(payload, context);
    };
    return startTestWorker(env, { 'sync-order-links': handler });
  });
}

async function runs(env: TestEnv) {
  return env.database.db.select().from(syncRuns).orderBy(asc(syncRuns.id));
}

describe('the sync schedule', () => {
  it(
    'runs once per tick with two workers started, never two syncs at once',
    { timeout: 30_000 },
    async () => {
      const file = path.join(dir, 'tick.csv');
      await writeFile(file, csv);
      // Every second (a six-field cron), so the test sees a few ticks.
      const env = await createTestEnv({ ORDER_LINKS_CSV: file, SYNC_CRON: '* * * * * *' });
      const seen: Array<{ replica: number; jobId: string }> = [];
      const replicas = startReplicas(env, seen);
      try {
        // Each replica upserts the schedule at start, as worker/src/index.ts does.
        await Promise.all(replicas.map((replica) => upsertSchedules(replica.producer, env.config)));
        const queue = replicas[0]!.producer.queue('sync-order-links');
        expect((await queue.getJobSchedulers()).map((scheduler) => scheduler.key)).toEqual([
          'sync-order-links',
        ]);

        // A few ticks, then the schedule goes.
        await expect
          .poll(() => seen.filter((entry) => entry.jobId !== SYNC_JOB_ID).length, { timeout: 15_000 })
          .toBeGreaterThanOrEqual(2);
        await queue.removeJobScheduler('sync-order-links');
        await expect.poll(async () => queue.getJob(SYNC_JOB_ID)).toBeUndefined();

        const ticks = seen.filter((entry) => entry.jobId !== SYNC_JOB_ID).map((entry) => entry.jobId);
        const syncs = seen.filter((entry) => entry.jobId === SYNC_JOB_ID);
        // Each tick was processed once, by one replica, and became at most one sync.
        expect(new Set(ticks).size).toBe(ticks.length);
        expect(ticks.length).toBeGreaterThanOrEqual(2);
        expect(ticks.length).toBeLessThanOrEqual(5);
        expect(syncs.length).toBeGreaterThanOrEqual(1);
        expect(syncs.length).toBeLessThanOrEqual(ticks.length);
        const recorded = await runs(env);
        expect(recorded.length).toBe(syncs.length);
        expect(recorded.every((run) => run.trigger === 'schedule' && run.status === 'succeeded')).toBe(true);
        // No two runs overlapped.
        for (let i = 1; i < recorded.length; i++) {
          expect(recorded[i]!.startedAt.getTime()).toBeGreaterThanOrEqual(
            recorded[i - 1]!.finishedAt!.getTime(),
          );
        }
      } finally {
        await Promise.all(replicas.map((replica) => replica.close()));
        await env.cleanup();
      }
    },
  );

  it('a tick arriving while a sync runs joins it', async () => {
    // A slow CSV, so the first sync is still running when the tick comes.
    const server = http.createServer((_req, res) => {
      setTimeout(() => res.end(csv), 1_000);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const env = await createTestEnv({
      ORDER_LINKS_CSV: `http://127.0.0.1:${(server.address() as AddressInfo).port}/links.csv`,
    });
    const seen: Array<{ replica: number; jobId: string }> = [];
    const replicas = startReplicas(env, seen);
    try {
      const queue = replicas[0]!.producer.queue('sync-order-links');
      await replicas[0]!.producer.enqueue('sync-order-links', { trigger: 'admin' });
      await expect.poll(async () => (await queue.getJob(SYNC_JOB_ID))?.getState()).toBe('active');
      await queue.add(
        'sync-order-links',
        { trigger: 'schedule' },
        { jobId: 'repeat-join-test', removeOnComplete: true },
      );
      await expect.poll(() => seen.some((entry) => entry.jobId === 'repeat-join-test')).toBe(true);
      await expect.poll(async () => queue.getJob(SYNC_JOB_ID), { timeout: 15_000 }).toBeUndefined();
      expect((await runs(env)).map((run) => [run.trigger, run.status])).toEqual([['admin', 'succeeded']]);
    } finally {
      await Promise.all(replicas.map((replica) => replica.close()));
      await env.cleanup();
      server.closeAllConnections();
      server.close();
    }
  });

  it('is removed when SYNC_CRON is unset, and a bad pattern stops the start with a clear message', async () => {
    const env = await createTestEnv({ SYNC_CRON: '0 6 * * *' });
    const worker = startTestWorker(env);
    try {
      const queue = worker.producer.queue('sync-order-links');
      await upsertSchedules(worker.producer, env.config);
      const scheduler = await queue.getJobScheduler('sync-order-links');
      expect(scheduler).toMatchObject({ pattern: '0 6 * * *', tz: 'Pacific/Auckland' });

      await upsertSchedules(worker.producer, parseConfig({ ...env.env, SYNC_CRON: '' }));
      expect(await queue.getJobScheduler('sync-order-links')).toBeUndefined();
      expect(await queue.getDelayedCount()).toBe(0);

      await expect(
        upsertSchedules(worker.producer, parseConfig({ ...env.env, SYNC_CRON: 'every morning' })),
      ).rejects.toThrow(/^Schedule sync-order-links \(SYNC_CRON "every morning"\) could not be set: ./);
    } finally {
      await worker.close();
      await env.cleanup();
    }
  });

  it('are put back when Redis loses them, without moving the ones still in place', async () => {
    const env = await createTestEnv({ SYNC_CRON: '0 6 * * *', SWEEP_INTERVAL_MS: '500' });
    const worker = startTestWorker(env);
    const connection = worker.workers[0]!.opts.connection as unknown as import('ioredis').Redis;
    const ids = ['count-video-stat-sweep', 'contact-notification-sweep', 'sync-order-links'];
    const schedulers = () =>
      Promise.all([
        worker.producer.queue('count-video-stat').getJobScheduler(ids[0]!),
        worker.producer.queue('contact-notification').getJobScheduler(ids[1]!),
        worker.producer.queue('sync-order-links').getJobScheduler(ids[2]!),
      ]);
    const stop = keepSchedules(
      worker.producer,
      env.config,
      connection,
      createLogger({ name: 'test', level: 'silent' }),
    );
    try {
      await upsertSchedules(worker.producer, env.config);
      expect(await restoreSchedules(worker.producer, env.config)).toEqual([]);
      const before = await schedulers();

      // FLUSHALL, as far as this test's prefix goes: no connection drops, so the periodic check finds it.
      const keys = await connection.keys(`${env.config.QUEUE_PREFIX}:*`);
      await connection.del(...keys);
      expect(await schedulers()).toEqual([undefined, undefined, undefined]);
      await expect.poll(async () => (await schedulers()).every(Boolean), { timeout: 5_000 }).toBe(true);
      const after = await schedulers();
      expect(after.map((scheduler) => scheduler?.key)).toEqual(ids);
      expect(after[2]).toMatchObject({ pattern: '0 6 * * *', tz: 'Pacific/Auckland', next: before[2]!.next });
      expect(after[2]!.template?.data).toEqual({ trigger: 'schedule' });

      // Only the missing job of a scheduler still present: that one is put back alone. The periodic
      // check stops first: one of its runs could put the job back before the call under test does.
      stop();
      const jobId = `repeat:sync-order-links:${after[2]!.next}`;
      const queueKey = `${env.config.QUEUE_PREFIX}:sync-order-links`;
      await connection.del(`${queueKey}:${jobId}`);
      await connection.zrem(`${queueKey}:delayed`, jobId);
      expect(await restoreSchedules(worker.producer, env.config)).toEqual(['sync-order-links']);
      expect(await restoreSchedules(worker.producer, env.config)).toEqual([]);
      expect(await worker.producer.queue('sync-order-links').getDelayedCount()).toBe(1);
    } finally {
      stop();
      await worker.close();
      await env.cleanup();
    }
  });
});
