import { randomBytes, randomUUID } from 'node:crypto';
import request from 'supertest';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { storageKeyDigest } from '@app/shared/queue';
import { downloadLinkSchema, hlsTokenSchema, streamLinkSchema } from '@app/shared/schemas';
import { postStripeWebhook } from '../../../../test/support/app.ts';
import { createVideo, processedMedia } from '../../../../test/support/factories.ts';
import { drain } from '../../../../test/support/worker.ts';
import { useTestWorld } from '../../../../test/support/world.ts';
import { SEGMENT_TOKEN_SECONDS } from './stream-tokens.ts';

const { env, api, worker, stripe } = useTestWorld({
  api: true,
  // The stream is written by hand below; no ffmpeg here.
  worker: { 'make-video-stream': () => Promise.resolve('skipped') },
  stripe: true,
});

afterEach(() => {
  vi.useRealTimers();
});

const MASTER = `#EXTM3U
#EXT-X-VERSION:7
#EXT-X-STREAM-INF:BANDWIDTH=950845,RESOLUTION=640x360,CODECS="avc1.64001e,mp4a.40.2"
360p/index.m3u8

#EXT-X-STREAM-INF:BANDWIDTH=5238300,RESOLUTION=1920x1080
source/index.m3u8
`;
const variant = (init: string) => `#EXTM3U
#EXT-X-VERSION:7
#EXT-X-TARGETDURATION:4
#EXT-X-MEDIA-SEQUENCE:0
#EXT-X-PLAYLIST-TYPE:VOD
#EXT-X-INDEPENDENT-SEGMENTS
#EXT-X-MAP:URI="${init}"
#EXTINF:4.000000,
seg00000.m4s
#EXTINF:4.000000,
seg00001.m4s
#EXT-X-ENDLIST
`;

/** A paid video whose file has an adaptive stream in storage (as make-video-stream leaves it). */
async function streamedVideo(priceCents = 2000) {
  const awsKey = `videos/${randomUUID()}.mp4`;
  const original = randomBytes(64 * 1024);
  await api.deps.storage.put(awsKey, original, 'video/mp4');
  const prefix = `streams/${storageKeyDigest(awsKey)}/`;
  const segments: Record<string, Buffer> = {};
  await api.deps.storage.put(`${prefix}master.m3u8`, Buffer.from(MASTER), 'application/vnd.apple.mpegurl');
  for (const [index, name] of ['360p', 'source'].entries()) {
    await api.deps.storage.put(
      `${prefix}${name}/index.m3u8`,
      Buffer.from(variant(`init_${index}.mp4`)),
      'application/vnd.apple.mpegurl',
    );
    for (const file of [`init_${index}.mp4`, 'seg00000.m4s', 'seg00001.m4s']) {
      segments[`${name}/${file}`] = randomBytes(10_000);
      await api.deps.storage.put(
        `${prefix}${name}/${file}`,
        segments[`${name}/${file}`]!,
        'video/iso.segment',
      );
    }
  }
  const video = await createVideo(env.database.db, {
    priceCents,
    awsKey,
    processingState: 'ready',
    media: processedMedia({
      durationSeconds: 8,
      sizeBytes: original.length,
      posterKey: 'previews/posters/x.jpg',
      hls: {
        state: 'ready',
        error: null,
        prefix,
        renditions: [
          { name: '360p', width: 640, height: 360, copy: false },
          { name: 'source', width: 1920, height: 1080, copy: true },
        ],
      },
    }),
  });
  return { video, original, segments };
}

/** A Stripe webhook delivery, as the shop receives it, and the jobs it queues run. */
async function deliver(type: string, object: object) {
  await postStripeWebhook(api.app, stripe.signedEvent(type, object)).expect(200);
  await drain(worker.producer, 'record-sale');
}

/** Buys the video through the real checkout and the fake Stripe's payment webhook. */
async function buy(videoId: string) {
  const { body } = await request(api.app)
    .post('/api/cart/checkout')
    .set('X-Forwarded-For', `203.0.113.${Math.floor(Math.random() * 250)}`)
    .send({ customerName: 'Aroha Smith', customerEmail: 'aroha@example.nz', items: [{ videoId }] })
    .expect(201);
  const { sessionId } = body as { sessionId: string };
  await deliver('checkout.session.completed', stripe.pay(sessionId));
  return sessionId;
}

async function hlsUrlFor(videoId: string, sessionId?: string) {
  const { body } = await request(api.app)
    .post(`/api/video-stream/${videoId}`)
    .send(sessionId ? { sessionId } : {})
    .expect(200);
  return streamLinkSchema.parse(body).hlsUrl;
}

const get = (url: string) => request(api.app).get(url);
/** The answer's bytes, whatever its type. */
const binary = (res: request.Response, done: (error: Error | null, body: Buffer) => void) => {
  const stream = res as unknown as NodeJS.ReadableStream;
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  stream.on('end', () => done(null, Buffer.concat(chunks)));
};
const bytes = (url: string) => get(url).buffer(true).parse(binary);
const resolve = (relative: string, base: string) => {
  const url = new URL(relative, `http://site${base}`);
  return url.pathname + url.search;
};
const uris = (playlist: string) =>
  playlist
    .split('\n')
    .flatMap((line) =>
      line.startsWith('#') ? [...line.matchAll(/URI="([^"]+)"/g)].map((m) => m[1]!) : [line],
    )
    .filter(Boolean);

/** The master, the 360p playlist and its signed segment links, as a player follows them. */
async function follow(masterUrl: string) {
  const master = await get(masterUrl).expect(200);
  expect(master.headers['content-type']).toMatch(/application\/vnd\.apple\.mpegurl/);
  expect(master.headers['cache-control']).toBe('no-store');
  const variantUrl = resolve(uris(master.text)[0]!, masterUrl);
  const playlist = await get(variantUrl).expect(200);
  const links = uris(playlist.text).map((uri) => resolve(uri, variantUrl));
  return { master: master.text, variantUrl, links };
}

describe('a buyer playing the adaptive stream', () => {
  it('gets playlists whose every link is signed, and segments by range', async () => {
    const { video, segments } = await streamedVideo();
    const sessionId = await buy(video.id);
    const masterUrl = (await hlsUrlFor(video.id, sessionId))!;
    expect(masterUrl).toMatch(new RegExp(`^/api/hls/${video.id}/master\\.m3u8\\?grant=`));

    const { master, variantUrl, links } = await follow(masterUrl);
    expect(uris(master)).toEqual([
      expect.stringMatching(/^360p\/index\.m3u8\?grant=/),
      expect.stringMatching(/^source\/index\.m3u8\?grant=/),
    ]);
    expect(variantUrl).toMatch(new RegExp(`^/api/hls/${video.id}/360p/index\\.m3u8\\?grant=`));
    expect(links.map((link) => link.replace(/\?t=.*/, ''))).toEqual(
      ['init_0.mp4', 'seg00000.m4s', 'seg00001.m4s'].map((file) => `/api/hls/${video.id}/360p/${file}`),
    );
    const first = await bytes(links[1]!).expect(200);
    expect(Buffer.compare(first.body as Buffer, segments['360p/seg00000.m4s']!)).toBe(0);
    const part = await bytes(links[1]!).set('Range', 'bytes=100-199').expect(206);
    expect(Buffer.compare(part.body as Buffer, segments['360p/seg00000.m4s']!.subarray(100, 200))).toBe(0);
  });

  it("sends a long video's playlists compressed: every line carries the same token", async () => {
    const { video } = await streamedVideo();
    const sessionId = await buy(video.id);
    const masterUrl = (await hlsUrlFor(video.id, sessionId))!;
    // Ten minutes in 2 s segments, as make-video-stream writes it.
    const lines = Array.from(
      { length: 300 },
      (_, n) => `#EXTINF:2.000000,\nseg${String(n).padStart(5, '0')}.m4s`,
    );
    await api.deps.storage.put(
      `streams/${storageKeyDigest(video.awsKey)}/360p/index.m3u8`,
      Buffer.from(
        `${variant('init_0.mp4').replace(/#EXTINF[^]*#EXT-X-ENDLIST/, lines.join('\n'))}\n#EXT-X-ENDLIST\n`,
      ),
      'application/vnd.apple.mpegurl',
    );
    const { variantUrl, links } = await follow(masterUrl);
    expect(links).toHaveLength(301);
    const sizes = async (encoding: string) => {
      const response = await get(variantUrl).set('Accept-Encoding', encoding).expect(200);
      return { encoding: response.headers['content-encoding'], text: response.text };
    };
    const [gzip, plain] = [await sizes('gzip'), await sizes('identity')];
    expect(gzip).toEqual({ encoding: 'gzip', text: plain.text });
    expect(plain.encoding).toBeUndefined();
    expect(plain.text.length).toBeGreaterThan(50_000);
  });

  it('refuses (403, nothing served) another video’s token, an expired or tampered one, and paths outside the folder', async () => {
    const { video } = await streamedVideo();
    const { video: other } = await streamedVideo();
    const [mine, theirs] = await Promise.all([buy(video.id), buy(other.id)]);
    const { links } = await follow((await hlsUrlFor(video.id, mine))!);
    const { links: otherLinks } = await follow((await hlsUrlFor(other.id, theirs))!);
    const segment = links[1]!;
    const token = new URL(segment, 'http://site').searchParams.get('t')!;
    const otherToken = new URL(otherLinks[1]!, 'http://site').searchParams.get('t')!;
    const base = `/api/hls/${video.id}`;
    const tampered = token.slice(0, -2) + (token.endsWith('AA') ? 'BB' : 'AA');
    const [body] = token.split('.');
    const forged = `${Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(body!, 'base64url').toString()), exp: 4_000_000_000 })).toString('base64url')}.${token.split('.')[1]}`;
    const refused = [
      `${base}/360p/seg00000.m4s?t=${encodeURIComponent(otherToken)}`,
      `${base}/360p/seg00000.m4s?t=${encodeURIComponent(tampered)}`,
      `${base}/360p/seg00000.m4s?t=${encodeURIComponent(forged)}`,
      `${base}/360p/seg00000.m4s`,
      `${base}/%2E%2E/seg00000.m4s?t=${encodeURIComponent(token)}`,
      `${base}/360p/..%2F..%2Fmaster.m3u8?t=${encodeURIComponent(token)}`,
      `${base}/360p/..%2F..%2F..%2F..%2Fvideos%2Fx.mp4?t=${encodeURIComponent(token)}`,
      `${base}/360p/passwd?t=${encodeURIComponent(token)}`,
      // Playlists need the grant (and its database check), never a segment token.
      `${base}/360p/index.m3u8?t=${encodeURIComponent(token)}`,
      `${base}/master.m3u8?t=${encodeURIComponent(token)}`,
      `${base}/master.m3u8`,
      // Another buyer's grant does not open this video.
      `${base}/master.m3u8?grant=${encodeURIComponent(new URL((await hlsUrlFor(other.id, theirs))!, 'http://site').searchParams.get('grant')!)}`,
    ];
    for (const url of refused) {
      const response = await get(url).buffer(true);
      expect(response.status, url).toBe(403);
      expect(response.headers['content-type'], url).toMatch(/json/);
    }
    await get(segment).expect(200);

    // Expiry: the token works for its minute, then not (the clock moved on, nothing slept).
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + (SEGMENT_TOKEN_SECONDS - 5) * 1000);
    await get(segment).expect(200);
    vi.setSystemTime(Date.now() + 10_000);
    await get(segment).expect(403);
  });

  it('ends with a full refund: the next playlist and token refresh are refused, segment links die within 60 s', async () => {
    const { video } = await streamedVideo();
    const sessionId = await buy(video.id);
    const masterUrl = (await hlsUrlFor(video.id, sessionId))!;
    const { variantUrl, links } = await follow(masterUrl);
    const grant = new URL(masterUrl, 'http://site').searchParams.get('grant')!;
    const refresh = `/api/hls/${video.id}/token?grant=${encodeURIComponent(grant)}`;
    const refreshed = hlsTokenSchema.parse((await get(refresh).expect(200)).body);
    expect(refreshed.expiresInSeconds).toBeLessThanOrEqual(60);
    const refreshedSegment = `/api/hls/${video.id}/360p/seg00001.m4s?t=${encodeURIComponent(refreshed.token)}`;
    await get(refreshedSegment).expect(200);
    const issuedAt = Date.now();

    await deliver('charge.refunded', stripe.refund(sessionId));
    for (const url of [masterUrl, variantUrl, refresh]) expect((await get(url)).status, url).toBe(403);
    await request(api.app).post(`/api/video-stream/${video.id}`).send({ sessionId }).expect(403);

    // Links handed out before the refund stop within a minute of being issued.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(issuedAt + 60_000);
    for (const url of [links[1]!, refreshedSegment]) expect((await get(url)).status, url).toBe(403);
  });

  it('a partial refund keeps playback; a free video streams to anyone; a video without a stream has no hlsUrl', async () => {
    const { video } = await streamedVideo();
    const sessionId = await buy(video.id);
    await deliver('charge.refunded', stripe.refund(sessionId, 500));
    await follow((await hlsUrlFor(video.id, sessionId))!);

    const { video: free } = await streamedVideo(0);
    await follow((await hlsUrlFor(free.id))!);

    const plain = await createVideo(env.database.db, { priceCents: 0 });
    await api.deps.storage.put(plain.awsKey, Buffer.from('bytes'), 'video/mp4');
    expect(await hlsUrlFor(plain.id)).toBeUndefined();
  });
});

describe('downloads', () => {
  it('stay the original file, byte for byte, when the video has an adaptive stream', async () => {
    const { video, original } = await streamedVideo();
    const sessionId = await buy(video.id);
    const { body } = await request(api.app).post(`/api/download/${video.id}`).send({ sessionId }).expect(200);
    const { downloadUrl } = downloadLinkSchema.parse(body);
    const link = new URL(downloadUrl, 'http://site');
    const file = await bytes(link.pathname + link.search).expect(200);
    expect(Buffer.compare(file.body as Buffer, original)).toBe(0);
  });
});
