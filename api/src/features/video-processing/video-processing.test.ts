import { readFile } from 'node:fs/promises';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import {
  adminVideoSchema,
  downloadLinkSchema,
  jobListSchema,
  publicVideoSchema,
  queuedJobSchema,
  streamLinkSchema,
  singleUploadTargetSchema,
  type AdminVideo,
} from '@app/shared/schemas';
import { makeTestVideo, topLevelBoxes } from '../../../../test/support/media.ts';
import { drain } from '../../../../test/support/worker.ts';
import { useTestWorld } from '../../../../test/support/world.ts';

const origin = 'http://localhost:3000';

const { api, worker, agent } = useTestWorld({ admin: true, worker: true });

/** Uploads a file the way the Add Video dialog does (signed link, then PUT) and answers its key. */
async function uploadThroughAdmin(file: string, fileName: string): Promise<string> {
  const target = singleUploadTargetSchema.parse(
    (
      await agent
        .post('/api/admin/videos/upload-url')
        .set('Origin', origin)
        .send({ fileName, contentType: 'video/mp4' })
        .expect(200)
    ).body,
  );
  const url = new URL(target.uploadUrl);
  await agent
    .put(`${url.pathname}${url.search}`)
    .set('Origin', origin)
    .set('Content-Type', 'video/mp4')
    .send(await readFile(file))
    .expect(201);
  return target.awsKey;
}

const adminList = async () =>
  adminVideoSchema
    .strict()
    .array()
    .parse((await agent.get('/api/admin/videos?pageSize=200').expect(200)).body.videos);
const adminVideo = async (id: string) => (await adminList()).find((video) => video.id === id)!;

describe('a paid video uploaded through the admin', () => {
  let video: AdminVideo;

  it('is queued on save and ends ready with its duration, size, poster, clip and fast-start stream', async () => {
    const awsKey = await uploadThroughAdmin(await makeTestVideo({ seconds: 60 }), 'Solo Final.mp4');
    const created = await agent
      .post('/api/admin/videos')
      .set('Origin', origin)
      .send({ title: 'Solo final', description: 'Under 12 solo', priceCents: 2500, awsKey })
      .expect(201);
    video = adminVideoSchema.strict().parse(created.body);
    expect(video.processing.state).toBe('queued');

    await drain(worker.producer, 'process-video', 120_000);
    video = await adminVideo(video.id);
    expect(video.processing).toMatchObject({ state: 'ready', progress: null, error: null });
    expect(video.processing.media).toMatchObject({ width: 1280, height: 720, fastStart: false });
    expect(video.processing.media!.durationSeconds).toBeCloseTo(60, 0);
    expect(video.previewUrl).toBeNull(); // the owner's own field stays hers
    expect(video.posterUrl).toMatch(/^\/api\/video-preview\/previews%2Fposters%2F[0-9a-f]{24}\.jpg$/);

    // The jobs screen lists the job with its progress.
    const jobs = jobListSchema.parse(
      (await agent.get('/api/admin/jobs?queue=process-video').expect(200)).body,
    );
    expect(jobs.jobs.find((job) => (job.data as { videoId?: string }).videoId === video.id)).toMatchObject({
      state: 'completed',
      progress: 100,
    });
  }, 180_000);

  it('shows visitors the poster as its picture and the clip, which is public, cacheable and seekable', async () => {
    const listed = publicVideoSchema
      .strict()
      .array()
      .parse((await request(api.app).get('/api/videos').expect(200)).body)
      .find((item) => item.id === video.id)!;
    expect(listed.previewUrl).toBe(video.posterUrl);
    expect(listed.previewClipUrl).toMatch(/^\/api\/video-clips\/clips%2F[0-9a-f]{24}\.mp4$/);

    const poster = await request(api.app)
      .get(`${listed.previewUrl}?w=320`)
      .set('Accept', 'image/webp')
      .expect(200);
    expect(poster.headers['content-type']).toBe('image/webp');

    const clip = await request(api.app).get(listed.previewClipUrl!).expect(200);
    expect(clip.headers['content-type']).toBe('video/mp4');
    // A minute at most: a routine taken down must leave browsers' caches within it (decision 030).
    expect(clip.headers['cache-control']).toBe('public, max-age=60');
    expect(Number(clip.headers['content-length'])).toBeLessThanOrEqual(3 * 1024 * 1024);
    const part = await request(api.app).get(listed.previewClipUrl!).set('Range', 'bytes=0-99').expect(206);
    expect(part.headers['content-range']).toMatch(/^bytes 0-99\/\d+$/);

    // Only clips: the route never hands out a video itself.
    await request(api.app)
      .get(`/api/video-clips/${encodeURIComponent(video.awsKey)}`)
      .expect(404);
    await request(api.app).get('/api/video-clips/..%2Fsecret.mp4').expect(404);
  });

  it('streams the fast-start copy to a buyer and downloads the original under its own name', async () => {
    const free = await agent
      .put(`/api/admin/videos/${video.id}`)
      .set('Origin', origin)
      .send({ priceCents: 0 })
      .expect(200);
    expect(adminVideoSchema.parse(free.body).processing.state).toBe('ready');
    const { streamUrl } = streamLinkSchema.parse(
      (await request(api.app).post(`/api/video-stream/${video.id}`).send({}).expect(200)).body,
    );
    expect(streamUrl).toContain('/streams/');
    const streamed = new URL(streamUrl);
    const bytes = (
      await request(api.app).get(`${streamed.pathname}${streamed.search}`).buffer(true).expect(200)
    ).body as Buffer;
    expect(topLevelBoxes(bytes).slice(0, 2)).toEqual(['ftyp', 'moov']);

    const { downloadUrl } = downloadLinkSchema.parse(
      (await request(api.app).post(`/api/download/${video.id}`).send({}).expect(200)).body,
    );
    expect(decodeURIComponent(downloadUrl)).toContain(video.awsKey);

    // A free video shows no clip.
    const listed = publicVideoSchema.parse(
      (await request(api.app).get(`/api/videos/${video.id}`).expect(200)).body,
    );
    expect(listed.previewClipUrl).toBeNull();
  });

  it("processes again on the owner's request, and a new file replaces what the old one gave", async () => {
    await request(api.app).post(`/api/admin/videos/${video.id}/process`).set('Origin', origin).expect(401);
    const queued = await agent
      .post(`/api/admin/videos/${video.id}/process`)
      .set('Origin', origin)
      .expect(202);
    expect(queuedJobSchema.parse(queued.body)).toMatchObject({ queue: 'process-video' });
    expect((await adminVideo(video.id)).processing.state).toMatch(/queued|processing/);
    await drain(worker.producer, 'process-video', 120_000);
    expect((await adminVideo(video.id)).processing.state).toBe('ready');

    const bad = await uploadThroughAdmin(await makeTestVideo({ seconds: 2, audioOnly: true }), 'song.mp4');
    const edited = adminVideoSchema.parse(
      (
        await agent
          .put(`/api/admin/videos/${video.id}`)
          .set('Origin', origin)
          .send({ awsKey: bad })
          .expect(200)
      ).body,
    );
    expect(edited.processing.state).toMatch(/queued|processing/);
    expect(edited.processing.media).toBeNull();
    await drain(worker.producer, 'process-video', 60_000);
    const refused = await adminVideo(video.id);
    expect(refused.processing.state).toBe('failed');
    expect(refused.processing.error).toMatch(/only sound/);
    expect(refused.posterUrl).toBeNull();
    await agent.post('/api/admin/videos/missing/process').set('Origin', origin).expect(404);
  }, 180_000);
});
