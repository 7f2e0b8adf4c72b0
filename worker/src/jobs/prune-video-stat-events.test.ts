import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { videoStatEvents } from '@app/shared/db';
import { createVideo } from '../../../test/support/factories.ts';
import { schedulesFor } from '../schedules.ts';
import { APPLIED_EVENTS_KEPT_MS, pruneVideoStatEvents } from './prune-video-stat-events.ts';
import { useTestWorld } from '../../../test/support/world.ts';

const { env } = useTestWorld();

describe('prune-video-stat-events', () => {
  it('deletes applied events older than a day, never unapplied or recent ones', async () => {
    const { db } = env.database;
    const video = await createVideo(db);
    const old = new Date(Date.now() - APPLIED_EVENTS_KEPT_MS - 60_000);
    const [appliedOld, , appliedRecent, unapplied] = await db
      .insert(videoStatEvents)
      .values([
        { videoId: video.id, kind: 'view', createdAt: old, appliedAt: old },
        { videoId: video.id, kind: 'download', createdAt: old, appliedAt: old },
        { videoId: video.id, kind: 'view', appliedAt: new Date() },
        { videoId: video.id, kind: 'view', createdAt: old },
      ])
      .returning();
    const context = { db } as never;
    expect(await pruneVideoStatEvents({}, context)).toEqual({ status: 'done', deleted: 2 });
    expect(await pruneVideoStatEvents({}, context)).toBe('skipped');
    const left = await db
      .select({ id: videoStatEvents.id })
      .from(videoStatEvents)
      .orderBy(sql`created_at`);
    expect(left.map((row) => row.id).sort()).toEqual([appliedRecent!.id, unapplied!.id].sort());
    expect(left.map((row) => row.id)).not.toContain(appliedOld!.id);
  });

  it('runs on an hourly schedule', () => {
    expect(schedulesFor(env.config)).toContainEqual(
      expect.objectContaining({
        id: 'prune-video-stat-events',
        job: 'prune-video-stat-events',
        every: 3600_000,
      }),
    );
  });
});
