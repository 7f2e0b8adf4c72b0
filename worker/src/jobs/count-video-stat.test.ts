import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { videoStatEvents, videos } from '@app/shared/db';
import { createLogger } from '@app/shared/logger';
import { createVideo } from '../../../test/support/factories.ts';
import { useTestWorld } from '../../../test/support/world.ts';
import { countVideoStat } from './count-video-stat.ts';

// Through the api's recorder and the real queue: test/flows/video-stats.test.ts.
const { env } = useTestWorld();

const counters = async (id: string) => {
  const [row] = await env.database.db
    .select({ views: videos.views, downloads: videos.downloads, visits: videos.visits })
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
      { videoId: video.id, kind: 'visit' },
    ]);
    const context = { db, config: env.config, logger: createLogger({ name: 't', level: 'silent' }) } as never;
    expect(await countVideoStat({}, context)).toEqual({ status: 'done', applied: 4 });
    expect(await countVideoStat({}, context)).toBe('skipped');
    expect(await counters(video.id)).toEqual({ views: 2, downloads: 1, visits: 1 });
  });
});
