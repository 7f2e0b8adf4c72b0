import { eq } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { videoStatEvents } from '@app/shared/db';
import { createLogger } from '@app/shared/logger';
import { createVideo } from '../../../../test/support/factories.ts';
import { createVideoStatRecorder } from './video-stats.service.ts';
import { useTestWorld } from '../../../../test/support/world.ts';

const { env, producer } = useTestWorld({ producer: true });

describe('recording views and downloads', () => {
  it('saves a busy moment in a few statements and queues one job per group', async () => {
    const { db } = env.database;
    const video = await createVideo(db);
    const inserts = vi.spyOn(db, 'insert');
    const enqueues = vi.spyOn(producer, 'enqueue');
    const record = createVideoStatRecorder({
      db,
      producer,
      logger: createLogger({ name: 't', level: 'silent' }),
    });

    await Promise.all(Array.from({ length: 300 }, (_, i) => record(video.id, i % 3 ? 'view' : 'download')));

    const rows = await db.select().from(videoStatEvents).where(eq(videoStatEvents.videoId, video.id));
    expect(rows).toHaveLength(300);
    expect(rows.filter((row) => row.kind === 'download')).toHaveLength(100);
    // The first event goes alone; the rest gather behind it.
    expect(inserts.mock.calls.length).toBeGreaterThan(1);
    expect(inserts.mock.calls.length).toBeLessThan(30);
    expect(enqueues).toHaveBeenCalledTimes(inserts.mock.calls.length);
    inserts.mockRestore();
    enqueues.mockRestore();
  });

  it('fails the callers of a group that could not be saved, and goes on with the next', async () => {
    const { db } = env.database;
    const video = await createVideo(db);
    const record = createVideoStatRecorder({
      db,
      producer,
      logger: createLogger({ name: 't', level: 'silent' }),
    });

    await expect(record('no-such-video', 'view')).rejects.toThrow();
    await record(video.id, 'view');
    // Resolved once its row is saved.
    expect(await db.select().from(videoStatEvents).where(eq(videoStatEvents.videoId, video.id))).toHaveLength(
      1,
    );
  });
});
