import { createReadStream } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { videos } from '@app/shared/db';
import { storageKeyDigest, videoStreamJobId, type JobPayload } from '@app/shared/queue';
import type { VideoMedia } from '@app/shared/schemas';
import { createVideo } from '../../../test/support/factories.ts';
import { makeTestVideo, probe, videoPacketsMd5 } from '../../../test/support/media.ts';
import { drain } from '../../../test/support/worker.ts';
import { useTestWorld } from '../../../test/support/world.ts';
import { hlsCommand, planRenditions, SEGMENT_SECONDS } from '../media/renditions.ts';

const { env, worker } = useTestWorld({ worker: true });
let source1080: string;
let portraitSilent: string;
let hevc: string;
beforeAll(async () => {
  // 60 s of 1080p H.264 + AAC, at 10 frames a second to keep the encodes quick on a shared machine.
  source1080 = await makeTestVideo({ seconds: 60, width: 1920, height: 1080, rate: '10' });
  portraitSilent = await makeTestVideo({ seconds: 6, width: 720, height: 1280, rate: '10', audio: false });
  hevc = await makeTestVideo({ seconds: 4, width: 1280, height: 720, rate: '10', hevc10: true });
}, 900_000);

const db = () => env.database.db;
const row = async (id: string) => (await db().select().from(videos).where(eq(videos.id, id)))[0]!;

/** A ready video (processed before streams existed) whose file is `file`. */
async function readyVideo(file: string | Buffer, media: Partial<VideoMedia> = {}) {
  const video = await createVideo(db(), {
    processingState: 'ready',
    media: {
      durationSeconds: 60,
      width: 1920,
      height: 1080,
      videoCodec: 'h264',
      audioCodec: 'aac',
      sizeBytes: 1,
      fastStart: false,
      posterKey: 'previews/posters/x.jpg',
      clipKey: null,
      streamKey: null,
      ...media,
    },
  });
  await worker.context.storage.put(
    video.awsKey,
    Buffer.isBuffer(file) ? file : createReadStream(file),
    'video/mp4',
  );
  return video;
}

// A shared machine under load encodes slowly: generous limits (the speed is bench/video.ts's business).
async function makeStream(payload: JobPayload<'make-video-stream'>, timeoutMs = 850_000) {
  const queue = worker.producer.queue('make-video-stream');
  await queue.remove(videoStreamJobId(payload));
  const { jobId } = await worker.producer.enqueue('make-video-stream', payload);
  await drain(worker.producer, 'make-video-stream', timeoutMs);
  return (await queue.getJob(jobId))!;
}

const variantUris = (master: string) => master.split('\n').filter((line) => line.endsWith('.m3u8'));

describe('the adaptive stream of a 60 s 1080p H.264 source', () => {
  it('has three renditions that ffprobe reads, the top one a copy of the source picture', async () => {
    const video = await readyVideo(source1080);
    const job = await makeStream({ videoId: video.id, awsKey: video.awsKey });
    expect(await job.getState()).toBe('completed');
    expect(job.progress).toBe(100);

    const { media, processingState } = await row(video.id);
    expect(processingState).toBe('ready');
    const prefix = `streams/${storageKeyDigest(video.awsKey)}/`;
    expect(media?.hls).toEqual({
      state: 'ready',
      error: null,
      prefix,
      renditions: [
        { name: '360p', width: 640, height: 360, copy: false },
        { name: '720p', width: 1280, height: 720, copy: false },
        { name: 'source', width: 1920, height: 1080, copy: true },
      ],
    });

    const folder = path.join(env.storageDir, prefix);
    const master = await readFile(path.join(folder, 'master.m3u8'), 'utf8');
    expect(variantUris(master)).toEqual(['360p/index.m3u8', '720p/index.m3u8', 'source/index.m3u8']);
    // Every rendition names its codecs (hls.js switches only within one codec set).
    const inf = master.split('\n').filter((line) => line.startsWith('#EXT-X-STREAM-INF'));
    for (const line of inf) expect(line).toMatch(/CODECS="avc1\.[0-9a-f]{6},mp4a\.40\.2"/);
    // The weak-link rendition: 500 kbit/s of picture (at most 550) and 96 of sound (decision 031).
    expect(Number(/BANDWIDTH=(\d+)/.exec(inf[0]!)?.[1])).toBeLessThan(700_000);

    const sourceInfo = (await probe(source1080)).streams.find((s) => s.codec_type === 'video')!;
    const expected = { '360p': [640, 360], '720p': [1280, 720], source: [1920, 1080] } as const;
    for (const [name, [width, height]] of Object.entries(expected)) {
      const playlist = await readFile(path.join(folder, name, 'index.m3u8'), 'utf8');
      expect(playlist).toContain('#EXT-X-PLAYLIST-TYPE:VOD');
      expect(playlist).toMatch(/#EXT-X-MAP:URI="init(_\d+)?\.mp4"/);
      const info = await probe(path.join(folder, name, 'index.m3u8'));
      const picture = info.streams.find((s) => s.codec_type === 'video')!;
      expect(picture).toMatchObject({ codec_name: 'h264', width, height, pix_fmt: 'yuv420p' });
      expect(info.streams.find((s) => s.codec_type === 'audio')?.codec_name).toBe('aac');
      expect(Number(info.format.duration)).toBeCloseTo(60, 0);
      if (name === 'source')
        expect(picture).toMatchObject({ profile: sourceInfo.profile, level: sourceInfo.level });
      // Encodes: segments of SEGMENT_SECONDS (2 s), a key frame at the start of each.
      if (name !== 'source')
        for (const match of playlist.matchAll(/#EXTINF:([\d.]+)/g))
          expect(Number(match[1])).toBeLessThanOrEqual(SEGMENT_SECONDS + 0.5);
    }
    // A stream copy: the very same video packets as the source.
    expect(await videoPacketsMd5(path.join(folder, 'source', 'index.m3u8'))).toBe(
      await videoPacketsMd5(source1080),
    );
  }, 900_000);
});

describe('other sources', () => {
  it('a silent portrait phone video keeps its shape and gets no audio track; a rerun leaves the same', async () => {
    const video = await readyVideo(portraitSilent, { width: 720, height: 1280, audioCodec: null });
    await makeStream({ videoId: video.id, awsKey: video.awsKey });
    const hls = (await row(video.id)).media?.hls;
    const folder = path.join(env.storageDir, hls!.prefix!);
    const files = async () => (await readdir(folder, { recursive: true })).sort();
    const before = await files();
    expect(before).toContain('master.m3u8');
    const again = await makeStream({ videoId: video.id, awsKey: video.awsKey });
    expect(await again.getState()).toBe('completed');
    expect(await files()).toEqual(before);
    expect((await row(video.id)).media?.hls).toEqual(hls);
    expect(hls).toMatchObject({
      state: 'ready',
      renditions: [
        { name: '360p', width: 360, height: 640, copy: false },
        { name: 'source', width: 720, height: 1280, copy: true },
      ],
    });
    const info = await probe(path.join(env.storageDir, hls!.prefix!, '360p', 'index.m3u8'));
    expect(info.streams.map((s) => s.codec_type)).toEqual(['video']);
  }, 600_000);

  it('10-bit HEVC gets an 8-bit H.264 top rendition instead of a copy', async () => {
    const video = await readyVideo(hevc, { width: 1280, height: 720, videoCodec: 'hevc' });
    await makeStream({ videoId: video.id, awsKey: video.awsKey });
    const hls = (await row(video.id)).media?.hls;
    expect(hls?.renditions).toEqual([
      { name: '360p', width: 640, height: 360, copy: false },
      { name: '720p', width: 1280, height: 720, copy: false },
    ]);
    const info = await probe(path.join(env.storageDir, hls!.prefix!, '720p', 'index.m3u8'));
    expect(info.streams.find((s) => s.codec_type === 'video')).toMatchObject({
      codec_name: 'h264',
      pix_fmt: 'yuv420p',
    });
  }, 600_000);

  it('a file that cannot be read fails the stream for good, and the video stays ready', async () => {
    const video = await readyVideo(Buffer.from('not a video at all'.repeat(100)));
    const job = await makeStream({ videoId: video.id, awsKey: video.awsKey });
    expect(await job.getState()).toBe('failed');
    expect(job.attemptsMade).toBe(1); // refused, not retried
    const after = await row(video.id);
    expect(after.processingState).toBe('ready');
    expect(after.media?.hls).toMatchObject({ state: 'failed', prefix: null });
    expect(after.media?.hls?.error).toMatch(/not a video file/);
    expect(await readdir(path.join(env.storageDir, 'streams')).catch(() => [])).not.toContain(
      storageKeyDigest(video.awsKey),
    );
  }, 60_000);
});

describe('planRenditions', () => {
  const h264 = { videoCodec: 'h264', audioCodec: 'aac', pixelFormat: 'yuv420p' };
  it('skips renditions not smaller than the source', () => {
    expect(planRenditions({ ...h264, width: 640, height: 360 }).map((r) => r.name)).toEqual(['source']);
    expect(planRenditions({ ...h264, width: 1280, height: 720 }).map((r) => r.name)).toEqual([
      '360p',
      'source',
    ]);
  });
  it('encodes a 4K 10-bit HEVC top rendition at 1080p', () => {
    const plan = planRenditions({
      width: 3840,
      height: 2160,
      videoCodec: 'hevc',
      audioCodec: 'aac',
      pixelFormat: 'yuv420p10le',
    });
    expect(plan.map(({ name, width, height, copy }) => [name, width, height, copy])).toEqual([
      ['360p', 640, 360, false],
      ['720p', 1280, 720, false],
      ['1080p', 1920, 1080, false],
    ]);
  });
  it("gives the 360p rendition its own small sound; the others copy the source's AAC", () => {
    const source = { ...h264, width: 1920, height: 1080 };
    const plan = planRenditions(source);
    expect(plan.map(({ name, videoKbps, audioKbps }) => [name, videoKbps, audioKbps])).toEqual([
      ['360p', 500, 96],
      ['720p', 2500, null],
      ['source', null, null],
    ]);
    const args = hlsCommand('in.mp4', 'out', source, plan).join(' ');
    expect(args).toContain('-c:a:0 aac -b:a:0 96k -c:a:1 copy -c:a:2 copy');
    expect(args).toContain('-hls_time 2');
    // Without AAC in the source, every rendition's sound is encoded to stereo AAC.
    const other = hlsCommand('in.mp4', 'out', { ...source, audioCodec: 'pcm_s16le' }, plan).join(' ');
    expect(other).toContain('-c:a:0 aac -b:a:0 96k -ac:a:0 2 -c:a:1 aac -b:a:1 128k -ac:a:1 2');
  });
  it('does not copy 10-bit H.264', () => {
    expect(
      planRenditions({ ...h264, pixelFormat: 'yuv420p10le', width: 1920, height: 1080 }).at(-1),
    ).toMatchObject({
      name: '1080p',
      copy: false,
    });
  });
});
