import { createReadStream } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { videos } from '@app/shared/db';
import { processVideoJobId, type JobPayload } from '@app/shared/queue';
import type { Storage } from '@app/shared/storage';
import { createVideo } from '../../../test/support/factories.ts';
import { makeTestVideo, probe, topLevelBoxes } from '../../../test/support/media.ts';
import { drain, startTestWorker } from '../../../test/support/worker.ts';
import { CLIP_SECONDS, outputKeys, processVideo } from './process-video.ts';
import { useTestWorld } from '../../../test/support/world.ts';
import { expectErrorLogs } from '../../../test/support/guards.ts';

// The adaptive stream it queues has its own test (make-video-stream.test.ts).
const { env, worker } = useTestWorld({
  worker: { 'make-video-stream': () => Promise.resolve('skipped') },
  env: { VIDEO_MAX_DURATION_SECONDS: String(4 * 3600) },
});
let source60: string;
beforeAll(async () => {
  // The owner's usual file: 60 s of 720p with the index (moov) at the end.
  source60 = await makeTestVideo({ seconds: 60, rate: '10' });
}, 120_000);

const storage = () => worker.context.storage;
const db = () => env.database.db;

async function upload(key: string, file: string | Buffer) {
  await storage().put(key, Buffer.isBuffer(file) ? file : createReadStream(file), 'video/mp4');
}

async function processAndWait(payload: JobPayload<'process-video'>, again = false) {
  const queue = worker.producer.queue('process-video');
  if (again) await queue.remove(processVideoJobId(payload));
  const { jobId } = await worker.producer.enqueue('process-video', payload);
  await drain(worker.producer, 'process-video', 120_000);
  return (await queue.getJob(jobId))!;
}

const row = async (id: string) => (await db().select().from(videos).where(eq(videos.id, id)))[0]!;

/** Every output object in storage (posters, clips, fast-start copies). */
async function outputs(): Promise<string[]> {
  const found: string[] = [];
  for (const folder of ['previews/posters', 'clips', 'streams']) {
    const names = await readdir(path.join(env.storageDir, folder)).catch(() => []);
    found.push(...names.filter((name) => !name.includes('.tmp')).map((name) => `${folder}/${name}`));
  }
  return found.sort();
}

describe('a paid video with its index at the end', () => {
  it('gets its probe, a poster, a watermarked 480p clip and a fast-start copy; a second run leaves the same', async () => {
    const video = await createVideo(db(), { priceCents: 2500, awsKey: 'videos/recital-60s.mp4' });
    await upload(video.awsKey, source60);
    const job = await processAndWait({ videoId: video.id, awsKey: video.awsKey });
    expect(await job.getState()).toBe('completed');
    expect(job.progress).toBe(100);

    const processed = await row(video.id);
    expect(processed.processingState).toBe('ready');
    expect(processed.processingError).toBeNull();
    const media = processed.media!;
    expect(media.durationSeconds).toBeCloseTo(60, 0);
    expect(media).toMatchObject({
      width: 1280,
      height: 720,
      videoCodec: 'h264',
      audioCodec: 'aac',
      fastStart: false,
    });
    expect(media.sizeBytes).toBe((await storage().head(video.awsKey))!.size);
    const keys = outputKeys(video.awsKey);
    expect(media).toMatchObject({ posterKey: keys.poster, clipKey: keys.clip, streamKey: keys.stream });

    const poster = await readFile(path.join(env.storageDir, keys.poster));
    expect(poster.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff])); // JPEG

    const clipFile = path.join(env.storageDir, keys.clip);
    const clip = await probe(clipFile);
    expect(Number(clip.format.duration)).toBeGreaterThanOrEqual(15);
    expect(Number(clip.format.duration)).toBeLessThanOrEqual(CLIP_SECONDS + 0.5);
    expect(Number(clip.format.size)).toBeLessThanOrEqual(3 * 1024 * 1024);
    const picture = clip.streams.find((s) => s.codec_type === 'video')!;
    expect(picture).toMatchObject({ codec_name: 'h264', height: 480 });
    expect(clip.streams.find((s) => s.codec_type === 'audio')?.codec_name).toBe('aac');
    expect(topLevelBoxes(await readFile(clipFile)).indexOf('moov')).toBeLessThan(
      topLevelBoxes(await readFile(clipFile)).indexOf('mdat'),
    );

    // The stream copy: the same media, index first.
    const streamFile = path.join(env.storageDir, keys.stream);
    const streamBytes = await readFile(streamFile);
    expect(topLevelBoxes(streamBytes).slice(0, 2)).toEqual(['ftyp', 'moov']);
    expect(Number((await probe(streamFile)).format.duration)).toBeCloseTo(60, 0);
    expect(topLevelBoxes(await readFile(source60)).indexOf('moov')).toBeGreaterThan(
      topLevelBoxes(await readFile(source60)).indexOf('mdat'),
    );

    const before = await outputs();
    const again = await processAndWait({ videoId: video.id, awsKey: video.awsKey }, true);
    expect(await again.getState()).toBe('completed');
    expect((await row(video.id)).media).toEqual(media);
    expect(await outputs()).toEqual(before);
    expect(before).toEqual([keys.clip, keys.poster, keys.stream].sort());

    // A duplicate trigger while the first is done joins it: no second run.
    const duplicate = await worker.producer.enqueue('process-video', {
      videoId: video.id,
      awsKey: video.awsKey,
    });
    expect(duplicate.jobId).toBe(again.id);
  }, 240_000);
});

describe('the preview clip is an excerpt', () => {
  it('is a third of a short routine (12 s: 4 s) and at most CLIP_SECONDS of a long one (3 min: 18 s)', async () => {
    const cases = [
      { seconds: 12, longest: 4 },
      { seconds: 180, longest: CLIP_SECONDS },
    ];
    for (const { seconds, longest } of cases) {
      const video = await createVideo(db(), { priceCents: 1500, awsKey: `videos/routine-${seconds}s.mp4` });
      await upload(video.awsKey, await makeTestVideo({ seconds, width: 320, height: 180 }));
      const job = await processAndWait({ videoId: video.id, awsKey: video.awsKey });
      expect(await job.getState()).toBe('completed');
      const clip = await probe(path.join(env.storageDir, outputKeys(video.awsKey).clip));
      const duration = Number(clip.format.duration);
      expect({ seconds, duration: duration <= longest + 0.1 }).toEqual({ seconds, duration: true });
      expect(duration).toBeGreaterThan(longest - 1);
    }
  }, 240_000);
});

describe('files that are not playable videos', () => {
  it('fails each with a reason the owner can read, and leaves the video and storage as they were', async () => {
    const half = (await readFile(source60)).subarray(0, 4 * 1024 * 1024);
    const cases: Array<{ name: string; body: Buffer | string | null; reason: RegExp }> = [
      {
        name: 'notes.mp4',
        body: Buffer.from('These are my notes, not a video.\n'),
        reason: /not a video file/,
      },
      { name: 'tiny.mp4', body: Buffer.from('notes\n'), reason: /not a video file/ },
      { name: 'cut-short.mp4', body: half, reason: /cut short/ },
      { name: 'empty.mp4', body: Buffer.alloc(0), reason: /empty \(0 bytes\)/ },
      { name: 'sound.mp4', body: await makeTestVideo({ seconds: 3, audioOnly: true }), reason: /only sound/ },
      {
        name: 'ten-hours.mp4',
        body: await makeTestVideo({ seconds: 36_000, width: 64, height: 36, rate: '1/600', audio: false }),
        reason: /10 h 0 min long; videos up to 4 h 0 min/,
      },
      { name: 'vanished.mp4', body: null, reason: /no longer in storage/ },
    ];
    const made = await Promise.all(
      cases.map(async (item) => {
        const video = await createVideo(db(), {
          priceCents: 2500,
          awsKey: `videos/bad-${item.name}`,
          previewUrl: '/api/images/portfolio/owner-picked.jpg',
        });
        if (item.body !== null) await upload(video.awsKey, item.body);
        return { ...item, video };
      }),
    );
    const before = await outputs();
    for (const { video } of made)
      await worker.producer.enqueue('process-video', { videoId: video.id, awsKey: video.awsKey });
    await drain(worker.producer, 'process-video', 120_000);

    for (const { video, reason, name } of made) {
      const after = await row(video.id);
      expect({ name, state: after.processingState }).toEqual({ name, state: 'failed' });
      expect(after.processingError).toMatch(reason);
      // Plain words: no temporary path, storage key or ffmpeg's own message.
      expect(after.processingError).not.toMatch(/\/|stagelight-video|Invalid data|moov atom/);
      expect(after).toMatchObject({ awsKey: video.awsKey, previewUrl: video.previewUrl, media: null });
      const job = (await worker.producer
        .queue('process-video')
        .getJob(processVideoJobId({ videoId: video.id, awsKey: video.awsKey })))!;
      expect(job.attemptsMade).toBe(1); // refused at once, not retried
    }
    expect(await outputs()).toEqual(before);
  }, 240_000);

  it('retries a storage outage with backoff, then fails with the reason and no half outputs', async () => {
    expectErrorLogs(/ECONNREFUSED 10\.0\.0\.9/);
    const video = await createVideo(db(), { priceCents: 0, awsKey: 'videos/outage.mp4' });
    await upload(video.awsKey, await makeTestVideo({ seconds: 3, width: 320, height: 180 }));
    let calls = 0;
    const down: Storage = {
      ...worker.context.storage,
      get: async () => {
        calls += 1;
        throw new Error('connect ECONNREFUSED 10.0.0.9:443');
      },
    };
    const flaky = startTestWorker(env, {
      'process-video': (payload, context) => processVideo(payload, { ...context, storage: down }),
    });
    await worker.workers.find((w) => w.name === 'process-video')!.pause();
    try {
      const payload = { videoId: video.id, awsKey: video.awsKey };
      await worker.producer.queue('process-video').add('process-video', payload, {
        jobId: processVideoJobId(payload),
        attempts: 3,
        backoff: { type: 'fixed', delay: 50 },
      });
      await drain(flaky.producer, 'process-video');
      expect(calls).toBe(3);
      const after = await row(video.id);
      expect(after.processingState).toBe('failed');
      expect(after.processingError).toMatch(/problem on our side, not with the file/);
      expect(after.processingError).not.toMatch(/ECONNREFUSED|10\.0\.0\.9/);
      expect(after.media).toBeNull();
    } finally {
      await flaky.close();
      worker.workers.find((w) => w.name === 'process-video')!.resume();
    }
  }, 60_000);
});
