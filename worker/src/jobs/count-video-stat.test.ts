import { eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { videoStatEvents, videos } from '@app/shared/db';
import { createLogger } from '@app/shared/logger';
import { createProducer, createRedis } from '@app/shared/queue';
import { createTestEnv, type TestEnv } from '../../../test/support/test-env.ts';
import { createVideo } from '../../../test/support/factories.ts';
import { drain, startTestWorker } from '../../../test/support/worker.ts';
import { createVideoStatRecorder } from '../../../api/src/features/video-stats/video-stats.service.ts';
import { countVideoStat } from './count-video-stat.ts';

let env: TestEnv;
beforeAll(async () => {
  env = await createTestEnv();
});
afterAll(async () => {
  await env.cleanup();
});

const counters = async (id: string) => {
  const [row] = await env.database.db
    .select({ views: videos.views, downloads: videos.downloads })
    .from(videos)
    .where(eq(videos.id, id));
  return row;
};

describe('count-video-stat', () => {
  it('applies each event once, however often it runs', async () => {
    const { db } = env.database;
    const video = await createVideo(db);
    await db.insert(videoStatEvents).values([
      { videoId: video.id, kind: 'view' },
      { videoId: video.id, kind: 'view' },
      { videoId: video.id, kind: 'download' },
    ]);
    const context = { db, config: env.config, logger: createLogger({ name: 't', level: 'silent' }) } as never;
    expect(await countVideoStat({}, context)).toEqual({ status: 'done', applied: 3 });
    expect(await countVideoStat({}, context)).toBe('skipped');
    expect(await counters(video.id)).toEqual({ views: 2, downloads: 1 });
  });

  it('leaves the counters exact after 1,000 concurrent jobs through the real queue', async () => {
    const { db } = env.database;
    const [first, second] = [await createVideo(db), await createVideo(db)];
    const redis = createRedis(env.config.REDIS_URL, 'client');
    const producer = createProducer(redis, env.config.QUEUE_PREFIX);
    const recordVideoStat = createVideoStatRecorder({
      db,
      producer,
      logger: createLogger({ name: 't', level: 'silent' }),
    });
    const worker = startTestWorker(env);
    try {
      // 1,000 events recorded the way the api records them, concurrently, while the worker runs.
      await Promise.all(
        Array.from({ length: 1_000 }, (_, i) =>
          recordVideoStat(i % 2 ? first.id : second.id, i % 5 === 0 ? 'download' : 'view'),
        ),
      );
      await drain(worker.producer, 'count-video-stat');
      expect(await counters(first.id)).toEqual({ views: 400, downloads: 100 });
      expect(await counters(second.id)).toEqual({ views: 400, downloads: 100 });
      const left = await db.select().from(videoStatEvents).where(isNull(videoStatEvents.appliedAt));
      expect(left).toEqual([]);
      // Coalesced: a job per 100 ms slot, not one per event.
      const { completed, failed } = await worker.producer
        .queue('count-video-stat')
        .getJobCounts('completed', 'failed');
      expect(failed).toBe(0);
      expect(completed).toBeGreaterThan(0);
      expect(completed).toBeLessThan(100);
    } finally {
      await worker.close();
      await producer.close();
      redis.disconnect();
    }
  });
});
