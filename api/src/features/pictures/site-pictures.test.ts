import { mkdir, readdir, stat, utimes } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import sharp from 'sharp';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestWorld } from '../../../../test/support/world.ts';
import { negotiate } from './variants.ts';

const { dir: imagesDir, api } = useTestWorld({
  api: true,
  env: ({ dir }) => ({ IMAGES_DIR: dir, IMAGE_CACHE_DIR: path.join(dir, 'cache') }),
});
const cacheDir = path.join(imagesDir, 'cache');
let server: http.Server;

/**
 * The path exactly as written: URL parsers (supertest's, a browser's) remove `..` segments before
 * sending, but an attacker's raw request keeps them.
 */
function rawGet(path: string): Promise<{ status: number; type: string; body: string }> {
  return new Promise((resolve, reject) => {
    const { port } = server.address() as AddressInfo;
    http
      .get({ host: '127.0.0.1', port, path }, (response) => {
        let body = '';
        response.setEncoding('latin1');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode!, type: response.headers['content-type'] ?? '', body }),
        );
      })
      .on('error', reject);
  });
}

const image = (url: string, accept?: string) => {
  const call = request(api.app).get(url);
  return accept ? call.set('Accept', accept) : call;
};

beforeAll(async () => {
  for (const folder of ['hero', 'portfolio', 'attached_assets']) {
    await mkdir(path.join(imagesDir, folder), { recursive: true });
  }
  await sharp({ create: { width: 1920, height: 1080, channels: 3, background: '#1d1030' } })
    .jpeg()
    .toFile(path.join(imagesDir, 'hero/stage-hero.jpg'));
  await sharp({ create: { width: 800, height: 600, channels: 4, background: '#f5b94280' } })
    .png()
    .toFile(path.join(imagesDir, 'portfolio/group-01.png'));
  await sharp({ create: { width: 600, height: 400, channels: 3, background: '#3355aa' } })
    .jpeg()
    .toFile(path.join(imagesDir, 'attached_assets/event-01.jpg'));
  server = http.createServer(api.app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

describe('negotiate', () => {
  it('picks AVIF, then WebP, only when the browser names them with q > 0', () => {
    const chrome = 'image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8';
    expect(negotiate(chrome)).toBe('avif');
    expect(negotiate('image/webp,*/*')).toBe('webp');
    expect(negotiate('image/avif;q=0, image/webp;q=0.9')).toBe('webp');
    expect(negotiate('IMAGE/AVIF')).toBe('avif');
    expect(negotiate('image/*,*/*')).toBe('original');
    expect(negotiate(undefined)).toBe('original');
  });
});

describe('GET /api/images/{folder}/{file}', () => {
  it('serves the original with caching headers and Vary: Accept', async () => {
    const response = await image('/api/images/hero/stage-hero.jpg').expect(200);
    expect(response.headers['content-type']).toBe('image/jpeg');
    expect(response.headers['cache-control']).toBe('public, max-age=86400, stale-while-revalidate=604800');
    expect(response.headers.vary).toMatch(/Accept/);
    expect(response.headers.etag).toBeTruthy();
    expect(response.headers['last-modified']).toBeTruthy();
    expect((await sharp(response.body as Buffer).metadata()).width).toBe(1920);
  });

  it('makes each allowed width in the format the browser takes', async () => {
    for (const [accept, type, format] of [
      ['image/avif,image/webp,*/*', 'image/avif', 'heif'],
      ['image/webp,*/*', 'image/webp', 'webp'],
      ['*/*', 'image/jpeg', 'jpeg'],
    ] as const) {
      const response = await image('/api/images/hero/stage-hero.jpg?w=480', accept).expect(200);
      expect(response.headers['content-type'], accept).toBe(type);
      expect(response.headers.vary).toMatch(/Accept/);
      const metadata = await sharp(response.body as Buffer).metadata();
      expect(metadata.format, accept).toBe(format);
      expect(metadata.width).toBe(480);
      expect(metadata.height).toBe(270);
    }
    // A PNG stays a PNG (with its transparency) for a browser that takes neither.
    const png = await image('/api/images/portfolio/group-01.png?w=320').expect(200);
    expect(png.headers['content-type']).toBe('image/png');
    expect(await sharp(png.body as Buffer).metadata()).toMatchObject({ width: 320, hasAlpha: true });
    // The full-size picture re-encoded, for a browser that takes AVIF.
    const full = await image('/api/images/attached_assets/event-01.jpg', 'image/avif').expect(200);
    expect(full.headers['content-type']).toBe('image/avif');
    expect((await sharp(full.body as Buffer).metadata()).width).toBe(600);
  });

  it('never enlarges: a width wider than the picture gives the picture', async () => {
    const response = await image('/api/images/attached_assets/event-01.jpg?w=1920', 'image/webp').expect(200);
    expect((await sharp(response.body as Buffer).metadata()).width).toBe(600);
  });

  it('keeps each variant on disk after the first request, and makes it again when the picture changes', async () => {
    const first = await image('/api/images/hero/stage-hero.jpg?w=640', 'image/webp').expect(200);
    const cached = path.join(cacheDir, 'hero', 'stage-hero.jpg.640.webp');
    const made = (await stat(cached)).mtimeMs;

    const second = await image('/api/images/hero/stage-hero.jpg?w=640', 'image/webp').expect(200);
    expect((await stat(cached)).mtimeMs).toBe(made);
    expect(second.headers.etag).toBe(first.headers.etag);
    expect(Buffer.compare(second.body as Buffer, first.body as Buffer)).toBe(0);

    // The owner replaces the picture under the same name.
    const source = path.join(imagesDir, 'hero/stage-hero.jpg');
    const later = new Date(Date.now() + 5_000);
    await utimes(source, later, later);
    const third = await image('/api/images/hero/stage-hero.jpg?w=640', 'image/webp').expect(200);
    expect((await stat(cached)).mtimeMs).not.toBe(made);
    expect(third.headers.etag).not.toBe(first.headers.etag);
    // Made once for the new picture: the next request is served from the cache, same ETag.
    const fourth = await image('/api/images/hero/stage-hero.jpg?w=640', 'image/webp').expect(200);
    expect(fourth.headers.etag).toBe(third.headers.etag);
    // No temporary files are left behind.
    expect((await readdir(path.join(cacheDir, 'hero'))).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it('makes a variant once when many ask for it at the same moment', async () => {
    const responses = await Promise.all(
      Array.from({ length: 6 }, () => image('/api/images/portfolio/group-01.png?w=480', 'image/avif')),
    );
    for (const response of responses) expect(response.status).toBe(200);
    expect(new Set(responses.map((response) => response.headers.etag)).size).toBe(1);
  });

  it('answers 304 to a matching If-None-Match, for originals and variants', async () => {
    const original = await image('/api/images/hero/stage-hero.jpg').expect(200);
    const notModified = await image('/api/images/hero/stage-hero.jpg')
      .set('If-None-Match', original.headers.etag!)
      .expect(304);
    expect(notModified.headers['cache-control']).toMatch(/max-age=86400/);

    const variant = await image('/api/images/hero/stage-hero.jpg?w=320', 'image/webp').expect(200);
    await image('/api/images/hero/stage-hero.jpg?w=320', 'image/webp')
      .set('If-None-Match', variant.headers.etag!)
      .expect(304);
    // Another format is another representation: the WebP's ETag does not match the JPEG.
    await image('/api/images/hero/stage-hero.jpg?w=320')
      .set('If-None-Match', variant.headers.etag!)
      .expect(200);
  });

  it('refuses unknown folders, unsafe names and traversal with a JSON 404', async () => {
    for (const url of [
      '/api/images/../..',
      '/api/images/../../package.json',
      '/api/images/hero/..',
      '/api/images/secrets/stage-hero.jpg',
      '/api/images/HERO/stage-hero.jpg',
      '/api/images/hero/.stage-hero.jpg',
      '/api/images/hero/stage-hero.jpg.txt',
      '/api/images/hero/missing.jpg',
      '/api/images/hero/..%2F..%2Fpackage.json',
      '/api/images/hero/..%2f..%2f..%2fetc%2fpasswd',
      '/api/images/hero/%2e%2e%2f%2e%2e%2fpackage.json',
      '/api/images/hero/%2e%2e',
      '/api/images/hero/..%5C..%5Cpackage.json',
      '/api/images/hero/%252e%252e%252fpackage.json',
      '/api/images/%2e%2e/hero/stage-hero.jpg',
      '/api/images/hero%2F..%2Fportfolio/group-01.png',
      '/api/images/portfolio/group-01.png/extra',
      '/api/images/hero',
      '/api/images/cache/hero/stage-hero.jpg.640.webp',
    ]) {
      const response = await rawGet(url);
      expect(response.status, url).toBe(404);
      expect(response.type, url).toMatch(/application\/json/);
      expect(JSON.parse(response.body).message, url).toEqual(expect.any(String));
    }
  });

  it('refuses widths outside the list, so the cache cannot be flooded', async () => {
    for (const width of ['333', '0', '-320', '1e3', 'abc', '99999']) {
      const response = await image(`/api/images/hero/stage-hero.jpg?w=${width}`).expect(400);
      expect(response.body.message).toEqual(expect.any(String));
    }
    const folders = await readdir(cacheDir);
    const files = (await Promise.all(folders.map((folder) => readdir(path.join(cacheDir, folder))))).flat();
    expect(files.some((file) => /\.(333|0|99999)\./.test(file))).toBe(false);
  });
});
