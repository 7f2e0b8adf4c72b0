import { videoStatEvents, type VideoStatKind } from '@app/shared/db';
import { statBatch } from '@app/shared/queue';
import type { Deps } from '../../deps.ts';

/**
 * Records a view or download. The row is the truth; the queued job only hurries its application.
 * If Redis is down the event waits in the outbox until the worker's sweep applies it.
 */
export async function recordVideoStat(
  { db, producer, logger }: Pick<Deps, 'db' | 'producer' | 'logger'>,
  videoId: string,
  kind: VideoStatKind,
): Promise<void> {
  const [event] = await db
    .insert(videoStatEvents)
    .values({ videoId, kind })
    .returning({ id: videoStatEvents.id });
  // One job per time slot, not per event: the job applies every event saved so far.
  await producer.enqueue('count-video-stat', { batch: statBatch() }).catch((error: unknown) => {
    logger.warn({ err: error, eventId: event!.id }, 'count-video-stat not queued; the sweep will apply it');
  });
}
