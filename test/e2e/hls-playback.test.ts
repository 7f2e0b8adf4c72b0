import { createReadStream } from 'node:fs';
import os from 'node:os';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { videos } from '@app/shared/db';
import { createPurchase, createVideo, processedMedia } from '../support/factories.ts';
import { openPage } from '../support/browser.ts';
import { makeTestVideo } from '../support/media.ts';
import { drain } from '../support/worker.ts';
import { useTestWorld } from '../support/world.ts';

// The built api as a process; the worker in-process makes the stream with the real job.
const { env, api, browser, worker } = useTestWorld({
  processes: { api: true },
  worker: true,
  browser: true,
  timeout: 120_000,
});

const played = (video: import('playwright-core').Locator) =>
  video.evaluate((element: HTMLVideoElement) => ({
    mode: element.dataset.playback,
    // The lines of each rendition hls.js loaded a fragment of, in order.
    fragments: (element.dataset.hlsFragments ?? '').split(' ').filter(Boolean).map(Number),
    time: element.currentTime,
    height: element.videoHeight,
  }));

/** What the throttled page records about its own playback (its init script). */
interface PlaybackLog {
  paintedAt?: number;
  playingAt?: number;
  stalls: number;
  events: string[];
}

/** A bought 30 s 1080p routine at a camera's bitrate, its stream made by the real job: once per file. */
let bought: Promise<{ videoId: string; sessionId: string }> | undefined;
const boughtStream = () =>
  (bought ??= (async () => {
    const file = await makeTestVideo({
      seconds: 30,
      width: 1920,
      height: 1080,
      rate: '15',
      fastStart: true,
      crf: 24,
    });
    const video = await createVideo(env.database.db, {
      title: 'Senior Contemporary Duo',
      priceCents: 2500,
      processingState: 'ready',
      media: processedMedia(),
    });
    await worker.context.storage.put(video.awsKey, createReadStream(file), 'video/mp4');
    const poster = await sharp({ create: { width: 64, height: 36, channels: 3, background: '#334' } })
      .jpeg()
      .toBuffer();
    await worker.context.storage.put('previews/posters/duo.jpg', poster, 'image/jpeg');
    await worker.producer.enqueue('make-video-stream', { videoId: video.id, awsKey: video.awsKey });
    await drain(worker.producer, 'make-video-stream', 300_000);
    const [row] = await env.database.db.select().from(videos).where(eq(videos.id, video.id));
    expect(row!.media?.hls?.state).toBe('ready');
    expect(row!.media?.hls?.renditions.map((rendition) => rendition.height)).toEqual([360, 720, 1080]);
    const purchase = await createPurchase(env.database.db, { videoId: video.id, status: 'paid' });
    return { videoId: video.id, sessionId: purchase.checkoutSessionId! };
  })());

describe("the buyer's player", () => {
  it('plays the adaptive stream with hls.js: the lowest rendition first, then it climbs', async () => {
    const { videoId, sessionId } = await boughtStream();
    const buyer = await openPage(browser, { width: 390, height: 844 });
    const hlsRequests: string[] = [];
    buyer.page.on('request', (request) => {
      if (request.url().includes('/api/hls/')) hlsRequests.push(new URL(request.url()).pathname);
    });
    await buyer.page.goto(`${api.url}/video/${videoId}/download?session_id=${sessionId}`);
    const player = buyer.page.locator('video');
    await expect
      .poll(async () => (await played(player)).fragments.length, { timeout: 30_000 })
      .toBeGreaterThan(0);
    const start = await played(player);
    expect(start.mode).toBe('hls');
    expect(start.fragments[0]).toBe(360);
    // Fast here: hls.js climbs to the top rendition (the original's picture, copied).
    await expect.poll(async () => (await played(player)).fragments.at(-1), { timeout: 60_000 }).toBe(1080);
    await expect.poll(async () => (await played(player)).time, { timeout: 30_000 }).toBeGreaterThan(2);
    expect(hlsRequests).toContain(`/api/hls/${videoId}/master.m3u8`);
    expect(hlsRequests.some((path) => /\/360p\/seg\d+\.m4s$/.test(path))).toBe(true);
    // Keyboard and screen readers: the browser's own controls, as before.
    expect(await player.evaluate((element: HTMLVideoElement) => element.controls)).toBe(true);
    expect(buyer.errors).toEqual([]);
    await buyer.context.close();
  }, 420_000);

  it('plays 20 s on 360p without stalling on a 1.5 Mbit/s line (a car park on 4G)', async () => {
    const { videoId, sessionId } = await boughtStream();
    const buyer = await openPage(browser, { width: 390, height: 844 });
    // What the page itself sees (media events reach a capturing listener): when the first frame reached
    // the screen (requestVideoFrameCallback's presentation time, the compositor's own), when the element
    // said 'playing', and every stall after that with where it was and what it had buffered.
    await buyer.page.addInitScript(() => {
      const seen = window as unknown as PlaybackLog;
      seen.stalls = 0;
      seen.events = [];
      const log = (event: Event) => {
        const video = event.target as HTMLVideoElement;
        const buffered = Array.from(
          { length: video.buffered.length },
          (_, index) => `${video.buffered.start(index).toFixed(2)}-${video.buffered.end(index).toFixed(2)}`,
        );
        seen.events.push(
          `${Math.round(performance.now())} ms ${event.type} at ${video.currentTime.toFixed(2)} s, buffered ${buffered.join(' ') || 'nothing'}`,
        );
      };
      document.addEventListener(
        'loadstart',
        (event) =>
          (event.target as HTMLVideoElement).requestVideoFrameCallback(
            (_now, frame) => (seen.paintedAt ??= frame.presentationTime),
          ),
        true,
      );
      document.addEventListener(
        'playing',
        (event) => {
          seen.playingAt ??= performance.now();
          log(event);
        },
        true,
      );
      document.addEventListener(
        'waiting',
        (event) => {
          if (seen.playingAt !== undefined) seen.stalls++;
          log(event);
        },
        true,
      );
    });
    const network = await buyer.context.newCDPSession(buyer.page);
    await network.send('Network.enable');
    await network.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 60,
      downloadThroughput: 1_500_000 / 8,
      uploadThroughput: 750_000 / 8,
    });
    await buyer.page.goto(`${api.url}/video/${videoId}/download?session_id=${sessionId}`);
    const player = buyer.page.locator('video');
    await expect
      .poll(async () => (await played(player)).time, { timeout: 90_000, interval: 500 })
      .toBeGreaterThan(20);
    const watched = await played(player);
    const page = await buyer.page.evaluate(() => {
      const log = window as unknown as PlaybackLog;
      // Every request from navigation on, as the page's own resource timings saw it (start-end, size).
      const requests = (
        [
          ...performance.getEntriesByType('navigation'),
          ...performance.getEntriesByType('resource'),
        ] as PerformanceResourceTiming[]
      ).map((entry) => ({
        name: new URL(entry.name).pathname.replace(/^\/api\/hls\/[^/]+\//, 'hls/'),
        start: Math.round(entry.startTime),
        end: Math.round(entry.responseEnd),
        kb: Math.round(entry.transferSize / 102.4) / 10,
      }));
      return { ...log, requests };
    });
    const firstFrame = page.paintedAt ?? page.playingAt!;
    const asked = page.requests.find((request) => request.name.endsWith('master.m3u8'))?.start ?? 0;
    const shown = page.requests.filter((request) => request.start <= firstFrame);
    // A figure, not a test (speed is for benchmarks): the first frame from navigation on this line, where
    // the time went, and how busy the machine was (the line is emulated; the CPU is shared).
    console.info(
      [
        `1.5 Mbit/s: first frame ${Math.round(firstFrame)} ms after navigation ` +
          `(${page.paintedAt === undefined ? 'no frame callback: "playing"' : `"playing" at ${Math.round(page.playingAt!)} ms`}), ` +
          `${Math.round(firstFrame - asked)} ms after the player asked for the stream; ` +
          `load average ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} cores`,
        ...shown.map((request) => `  ${request.start}-${request.end} ms ${request.kb} KB ${request.name}`),
        `  ... ${page.requests.length - shown.length} requests after the first frame`,
        ...page.events.map((event) => `  ${event}`),
      ].join('\n'),
    );
    expect(watched.mode).toBe('hls');
    expect(new Set(watched.fragments)).toEqual(new Set([360]));
    expect(page.stalls).toBe(0);
    expect(buyer.errors).toEqual([]);
    await buyer.context.close();
  }, 300_000);
});
