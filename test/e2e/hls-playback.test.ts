import { createReadStream } from 'node:fs';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { videos } from '@app/shared/db';
import { createPurchase, createVideo } from '../support/factories.ts';
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

describe("the buyer's player", () => {
  it('plays the adaptive stream with hls.js: the lowest rendition first, then it climbs', async () => {
    const file = await makeTestVideo({ seconds: 30, fastStart: true });
    const video = await createVideo(env.database.db, {
      title: 'Senior Contemporary Duo',
      priceCents: 2500,
      processingState: 'ready',
      media: {
        durationSeconds: 30,
        width: 1280,
        height: 720,
        videoCodec: 'h264',
        audioCodec: 'aac',
        sizeBytes: 1,
        fastStart: true,
        posterKey: 'previews/posters/duo.jpg',
        clipKey: null,
        streamKey: null,
      },
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
    const purchase = await createPurchase(env.database.db, { videoId: video.id, status: 'paid' });

    const buyer = await openPage(browser, { width: 390, height: 844 });
    const hlsRequests: string[] = [];
    buyer.page.on('request', (request) => {
      if (request.url().includes('/api/hls/')) hlsRequests.push(new URL(request.url()).pathname);
    });
    await buyer.page.goto(`${api.url}/video/${video.id}/download?session_id=${purchase.checkoutSessionId}`);
    const player = buyer.page.locator('video');
    await expect
      .poll(async () => (await played(player)).fragments.length, { timeout: 30_000 })
      .toBeGreaterThan(0);
    const start = await played(player);
    expect(start.mode).toBe('hls');
    expect(start.fragments[0]).toBe(360);
    // Fast here: hls.js climbs to the top rendition (the original's picture, copied).
    await expect.poll(async () => (await played(player)).fragments.at(-1), { timeout: 60_000 }).toBe(720);
    await expect.poll(async () => (await played(player)).time, { timeout: 30_000 }).toBeGreaterThan(2);
    expect(hlsRequests).toContain(`/api/hls/${video.id}/master.m3u8`);
    expect(hlsRequests.some((path) => /\/360p\/seg\d+\.m4s$/.test(path))).toBe(true);
    // Keyboard and screen readers: the browser's own controls, as before.
    expect(await player.evaluate((element: HTMLVideoElement) => element.controls)).toBe(true);
    expect(buyer.errors).toEqual([]);
    await buyer.context.close();
  }, 420_000);
});
