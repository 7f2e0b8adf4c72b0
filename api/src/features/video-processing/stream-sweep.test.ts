import { eq } from 'drizzle-orm';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { videos } from '@app/shared/db';
import { videoStreamJobId } from '@app/shared/queue';
import { adminVideoListSchema, type VideoMedia } from '@app/shared/schemas';
import { createVideo, processedMedia } from '../../../../test/support/factories.ts';
import { useTestWorld } from '../../../../test/support/world.ts';

const origin = 'http://localhost:3000';
const { env, api, agent } = useTestWorld({ admin: true });

const media = (hls?: VideoMedia['hls']): VideoMedia =>
  processedMedia({ durationSeconds: 10, width: 1280, height: 720, sizeBytes: 100, ...(hls && { hls }) });

describe("the owner's sweep of adaptive streams", () => {
  it('queues, at low priority, every ready video without a ready stream, and only the owner may start it', async () => {
    const db = env.database.db;
    const older = await createVideo(db, { processingState: 'ready', media: media() });
    const failed = await createVideo(db, {
      processingState: 'ready',
      media: media({ state: 'failed', error: 'ffmpeg said no', prefix: null, renditions: [] }),
    });
    const streamed = await createVideo(db, {
      processingState: 'ready',
      media: media({ state: 'ready', error: null, prefix: 'streams/abc/', renditions: [] }),
    });
    const unprocessed = await createVideo(db, { processingState: 'queued' });

    await request(api.app).post('/api/admin/videos/streams/sweep').set('Origin', origin).expect(401);
    const { body } = await agent.post('/api/admin/videos/streams/sweep').set('Origin', origin).expect(202);
    expect(body).toEqual({ queued: 2 });

    const queue = api.deps.producer.queue('make-video-stream');
    for (const video of [older, failed]) {
      const job = await queue.getJob(videoStreamJobId({ videoId: video.id, awsKey: video.awsKey }));
      expect(job?.data).toEqual({ videoId: video.id, awsKey: video.awsKey, sweep: true });
      expect(job?.opts.priority).toBe(10);
      const [row] = await db.select().from(videos).where(eq(videos.id, video.id));
      expect(row!.media?.hls).toMatchObject({ state: 'queued', error: null });
    }
    for (const video of [streamed, unprocessed])
      expect(
        await queue.getJob(videoStreamJobId({ videoId: video.id, awsKey: video.awsKey })),
      ).toBeUndefined();

    // The owner's list shows the stream waiting, so its screen keeps polling.
    const list = adminVideoListSchema.parse(
      (await agent.get('/api/admin/videos?pageSize=50').expect(200)).body,
    );
    const listed = list.videos.find((video) => video.id === older.id)!;
    expect(listed.processing.media?.hls?.state).toBe('queued');
    expect(listed.processing.streamProgress).toBeNull();

    // A second press while they wait queues nothing new.
    const again = await agent.post('/api/admin/videos/streams/sweep').set('Origin', origin).expect(202);
    expect(again.body).toEqual({ queued: 0 });
  });
});
