import { videoStatEvents, type VideoStatKind } from '@app/shared/db';
import { statBatch } from '@app/shared/queue';
import { withRedisTimeout } from '@app/shared/redis';
import type { Deps } from '../../deps.ts';

/** A view or download counts once per address, video and this window (issue 21: no inflating by a loop). */
export const COUNT_WINDOW_MS = 3600_000;

/**
 * True the first time in COUNT_WINDOW_MS that this address views (or downloads) this video. When
 * Redis cannot say, it counts: a doubled view beats a lost one.
 */
export async function isFirstInWindow(
  { redis, config }: Pick<Deps, 'redis' | 'config'>,
  kind: VideoStatKind,
  videoId: string,
  address: string,
): Promise<boolean> {
  const key = `${config.QUEUE_PREFIX}:counted:${kind}:${videoId}:${address}`;
  const reply = await withRedisTimeout(
    redis,
    () => redis.set(key, '1', 'PX', COUNT_WINDOW_MS, 'NX'),
    500,
  ).catch(() => 'OK' as const);
  return reply === 'OK';
}

/** Rows per INSERT; a busy moment beyond this is written in several. */
const MAX_ROWS = 1_000;

interface Waiting {
  videoId: string;
  kind: VideoStatKind;
  saved: () => void;
  failed: (error: unknown) => void;
}

export type RecordVideoStat = (videoId: string, kind: VideoStatKind) => Promise<void>;

/**
 * Records views and downloads. The row is the truth; the queued job only hurries its application,
 * and if Redis is down the event waits in the outbox until the worker's sweep applies it.
 *
 * Events are written as a group commit: while one INSERT is on its way, the events that arrive
 * wait and go together in the next, so a busy minute costs a few statements and one job per group
 * rather than a statement and a job per view. Each caller still resolves only once its own row is
 * saved and its job queued (or found unqueueable).
 */
export function createVideoStatRecorder({
  db,
  producer,
  logger,
}: Pick<Deps, 'db' | 'producer' | 'logger'>): RecordVideoStat {
  let waiting: Waiting[] = [];
  let writing = false;

  async function writeAll(): Promise<void> {
    writing = true;
    while (waiting.length > 0) {
      const group = waiting.slice(0, MAX_ROWS);
      waiting = waiting.slice(MAX_ROWS);
      try {
        await db.insert(videoStatEvents).values(group.map(({ videoId, kind }) => ({ videoId, kind })));
      } catch (error) {
        for (const event of group) event.failed(error);
        continue;
      }
      // One job per time slot, not per event: the job applies every event saved so far.
      await producer.enqueue('count-video-stat', { batch: statBatch() }).catch((error: unknown) => {
        logger.warn(
          { err: error, events: group.length },
          'count-video-stat not queued; the sweep will apply it',
        );
      });
      for (const event of group) event.saved();
    }
    writing = false;
  }

  return (videoId, kind) =>
    new Promise<void>((saved, failed) => {
      waiting.push({ videoId, kind, saved, failed });
      if (!writing) void writeAll();
    });
}
