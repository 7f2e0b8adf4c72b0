import { eq, isNull } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { videoStatEvents, videos } from '@app/shared/db';
import { createLogger } from '@app/shared/logger';
import { createVideoStatRecorder } from '../../api/src/features/video-stats/video-stats.service.ts';
import { createVideo } from '../support/factories.ts';
import { drain } from '../support/worker.ts';
import { useTestWorld } from '../support/world.ts';

// Views and downloads recorded the way the api records them, counted by the worker's real queue.
const { env, producer, worker } = useTestWorld({ producer: true, worker: true });

/** A video's counters, as its page shows them. */
const counters = async (id: string) =>
  (await env.database.db.query.videos.findFirst({
    where: eq(videos.id, id),
    columns: { views: true, downloads: true },
  }))!;

describe('video stats from the api to the counters', () => {
  it('leaves the counters exact after 1,000 concurrent jobs through the real queue', async () => {
    const { db } = env.database;
    const [first, second] = [await createVideo(db), await createVideo(db)];
    const recordVideoStat = createVideoStatRecorder({
      db,
      producer,
      logger: createLogger({ name: 't', level: 'silent' }),
    });
    {
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
    }
  });
});
