import { spawn } from 'node:child_process';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { showcases, videos } from '@app/shared/db';
import { publicVideoSchema, videoTokenSchema } from '@app/shared/schemas';
import { binaryBody } from '../support/app.ts';
import { drain } from '../support/worker.ts';
import { useTestWorld } from '../support/world.ts';

// Protected means protected: the demo data's password-protected videos, once the worker has made
// their poster frames and clips, show neither in any public answer, page, sitemap or share card; they
// go only to a request carrying that video's token. Rendered pages need `npm run build` first.

const root = path.resolve(import.meta.dirname, '../..');
const { env, api, worker } = useTestWorld({ api: true, worker: true, timeout: 240_000 });

function runSeed(vars: Record<string, string>) {
  return new Promise<{ code: number | null; output: string }>((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/seed.ts'], {
      cwd: root,
      env: { ...process.env, ...vars },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('exit', (code) => resolve({ code, output }));
  });
}

type Row = typeof videos.$inferSelect;
let all: Row[];
const byTitle = (title: string) => all.find((video) => video.title === title)!;
/** The file digest that names a key's output (previews/posters/<digest>.jpg, clips/<digest>.mp4). */
const digestOf = (key: string) => path.basename(key).replace(/\.\w+$/, '');
const segment = (key: string) => key.replaceAll('/', '%2F');

async function tokenFor(videoId: string, password: string) {
  const { body } = await request(api.app)
    .post('/api/verify-video-password')
    .send({ videoId, password })
    .expect(200);
  return videoTokenSchema.parse(body).token;
}

beforeAll(async () => {
  const seeded = await runSeed(env.env);
  expect(seeded.code, seeded.output).toBe(0);
  await drain(worker.producer, 'process-video', 180_000);
  all = await env.database.db.select().from(videos);
  expect(all.every((video) => video.processingState === 'ready')).toBe(true);
}, 240_000);

describe("the demo data's protected videos", () => {
  it('have no poster, clip or thumbnail in any public JSON, page, sitemap or share card', async () => {
    const locked = all.filter((video) => video.passwordProtected);
    expect(locked.map((video) => video.title).sort()).toEqual([
      'Junior Ballet Recital',
      'Studio Open Day Teaser',
    ]);
    const secrets = locked.flatMap((video) => [video.media!.posterKey, video.media!.clipKey!]);
    expect(secrets.every(Boolean)).toBe(true);
    // An open paid video's clip is public: the surfaces below do show what the worker made.
    const open = byTitle('Senior Contemporary Group');
    expect(locked.some((video) => video.awsKey === open.awsKey)).toBe(false);
    expect(new Set(locked.map((video) => video.awsKey)).size).toBe(locked.length);

    const slugs = (await env.database.db.select({ slug: showcases.slug }).from(showcases)).map(
      (row) => row.slug,
    );
    const paths = [
      '/api/videos',
      '/api/videos?q=ballet',
      '/api/videos?q=teaser',
      '/api/library',
      '/api/showcases',
      '/api/library/search?q=ballet',
      '/api/library/search?q=open%20day',
      '/api/showcases/more/videos',
      ...slugs.map((slug) => `/api/showcases/${slug}/videos`),
      ...locked.flatMap((video) => [`/api/videos/${video.id}`]),
      '/',
      '/videos',
      '/videos?q=ballet',
      '/videos?q=teaser',
      '/videos/more',
      ...slugs.map((slug) => `/videos/${slug}`),
      ...locked.flatMap((video) => [`/video/${video.id}/purchase`, `/video/${video.id}/download`]),
      '/sitemap.xml',
      '/sitemaps/pages.xml',
      '/sitemaps/videos-1.xml',
    ];
    let seenOpenClip = false;
    for (const url of paths) {
      const response = await request(api.app).get(url);
      expect([200, 404], url).toContain(response.status);
      const text = response.text;
      for (const key of secrets) {
        expect(text.includes(digestOf(key)), `${url} names ${key}`).toBe(false);
        expect(text.includes(segment(key)), `${url} names ${key}`).toBe(false);
      }
      seenOpenClip ||= text.includes(digestOf(open.media!.clipKey!));
      if (url.startsWith('/video/') && response.status === 200) {
        // The share card: only the owner's own picture or the site's.
        const image = /<meta property="og:image" content="([^"]+)"/.exec(text)?.[1];
        expect(image, url).toBeDefined();
        expect(image, url).not.toMatch(/video-preview|video-clips|posters|clips/);
      }
    }
    expect(seenOpenClip).toBe(true);

    // The page's answer: the owner's own picture (hers to show), no frame, no clip.
    const ballet = byTitle('Junior Ballet Recital');
    const answer = publicVideoSchema.parse(
      (await request(api.app).get(`/api/videos/${ballet.id}`).expect(200)).body,
    );
    expect(answer).toMatchObject({ previewUrl: ballet.previewUrl, previewClipUrl: null });
  });

  it('are served only with their own valid token; with it the clip plays', async () => {
    const ballet = byTitle('Junior Ballet Recital');
    const teaser = byTitle('Studio Open Day Teaser');
    const poster = `/api/video-preview/${segment(ballet.media!.posterKey)}`;
    const clip = `/api/video-clips/${segment(ballet.media!.clipKey!)}`;
    const otherToken = await tokenFor(teaser.id, 'openday');
    for (const query of ['', '?w=320', '?token=forged.token', `?token=${encodeURIComponent(otherToken)}`]) {
      await request(api.app).get(`${poster}${query}`).expect(404);
      await request(api.app).get(`${clip}${query}`).expect(404);
    }

    const token = await tokenFor(ballet.id, 'recital2026');
    const unlocked = publicVideoSchema.parse(
      (
        await request(api.app)
          .get(`/api/videos/${ballet.id}?token=${encodeURIComponent(token)}`)
          .expect(200)
      ).body,
    );
    expect(unlocked.previewClipUrl).toBe(`${clip}?token=${encodeURIComponent(token)}`);
    const played = await request(api.app)
      .get(unlocked.previewClipUrl!)
      .buffer(true)
      .parse(binaryBody)
      .expect(200);
    expect(played.headers['content-type']).toBe('video/mp4');
    expect(played.headers['cache-control']).toBe('private, no-store');
    expect((played.body as Buffer).subarray(4, 8).toString('latin1')).toBe('ftyp');
    const frame = await request(api.app)
      .get(`${poster}?token=${encodeURIComponent(token)}`)
      .expect(200);
    expect(frame.headers['content-type']).toBe('image/jpeg');
    expect(frame.headers['cache-control']).toBe('private, no-store');

    // Without the owner's picture, the page still shows no frame to a visitor.
    await env.database.db.update(videos).set({ previewUrl: null }).where(eq(videos.id, teaser.id));
    await api.deps.publicCache.changed();
    const bare = publicVideoSchema.parse(
      (await request(api.app).get(`/api/videos/${teaser.id}`).expect(200)).body,
    );
    expect(bare).toMatchObject({ previewUrl: null, previewClipUrl: null });
    const opened = publicVideoSchema.parse(
      (
        await request(api.app)
          .get(`/api/videos/${teaser.id}?token=${encodeURIComponent(otherToken)}`)
          .expect(200)
      ).body,
    );
    expect(opened.previewUrl).toBe(
      `/api/video-preview/${segment(teaser.media!.posterKey)}?token=${encodeURIComponent(otherToken)}`,
    );
  });
});
