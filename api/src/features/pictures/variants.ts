import { mkdir, rename, stat, utimes } from 'node:fs/promises';
import path from 'node:path';
import type { Response } from 'express';
import { z } from 'zod';
import { IMAGE_WIDTHS } from '@app/shared/images';

// Width and format variants of a picture, for each of its sources: the site's own files
// (site-pictures), the owner's uploaded photos (uploaded-photos) and video previews (videos).

export const variantQuerySchema = z.object({
  w: z.coerce
    .number()
    .refine(
      (width) => (IMAGE_WIDTHS as readonly number[]).includes(width),
      `w must be one of ${IMAGE_WIDTHS.join(', ')}`,
    )
    .optional(),
});

type Format = 'avif' | 'webp' | 'original';

/**
 * AVIF, then WebP, when the browser names them in Accept (q > 0). Wildcards do not count: a bare
 * `image/*` says nothing about whether the browser can decode AVIF.
 */
export function negotiate(accept: string | undefined): Format {
  const accepted = new Set<string>();
  for (const entry of (accept ?? '').split(',')) {
    const [type = '', ...params] = entry.split(';').map((part) => part.trim().toLowerCase());
    const q = params.find((param) => param.startsWith('q='));
    if (q === undefined || Number(q.slice(2)) > 0) accepted.add(type);
  }
  if (accepted.has('image/avif')) return 'avif';
  if (accepted.has('image/webp')) return 'webp';
  return 'original';
}

// A day fresh, then a week of serving the cached copy while revalidating: the names are not content
// hashes (the owner may replace a picture under the same name), so `immutable` would be wrong.
const CACHE_CONTROL = 'public, max-age=86400, stale-while-revalidate=604800';

export const modifiedAt = (file: string) =>
  stat(file).then(
    (info) => (info.isFile() ? info.mtimeMs : undefined),
    () => undefined,
  );

type VariantSource = string | Buffer;

let sharpLoaded: Promise<(typeof import('sharp'))['default']> | undefined;

/**
 * sharp, loaded on the first variant, not at start: most requests find theirs already made. Memory
 * stays bounded as in the worker (decision 011): no libvips operation cache, which holds up to 50 MB
 * of decoded pictures, and one libvips thread per pipeline. A cold page of 24 previews took the api
 * from 120 to 290 MB resident without these.
 */
function loadSharp() {
  sharpLoaded ??= import('sharp').then(({ default: sharp }) => {
    sharp.cache(false);
    sharp.concurrency(1);
    return sharp;
  });
  return sharpLoaded;
}

/**
 * Width and format variants made once with sharp and kept on disk (IMAGE_CACHE_DIR), for our own
 * pictures and for video previews in storage. Responses carry ETags (304 on revalidation) and a day
 * of caching.
 */
export function imageVariants(cacheDir: string) {
  const cacheRoot = path.resolve(cacheDir);
  const inFlight = new Map<string, Promise<void>>();

  // One variant made at a time: each pipeline (an AVIF encoder above all) holds tens of MB outside
  // the heap, and a cold page asks for two dozen at once.
  let making: Promise<unknown> = Promise.resolve();
  function makeInTurn(...args: Parameters<typeof make>): Promise<void> {
    const turn = making.then(() => make(...args));
    making = turn.catch(() => {});
    return turn;
  }

  async function make(
    source: VariantSource,
    sourceModified: number,
    target: string,
    width: number | undefined,
    format: Format,
  ) {
    await mkdir(path.dirname(target), { recursive: true });
    const sharp = await loadSharp();
    let pipeline = sharp(source).rotate();
    if (width) pipeline = pipeline.resize({ width, withoutEnlargement: true });
    if (format === 'avif') pipeline = pipeline.avif({ quality: 55, effort: 2 });
    else if (format === 'webp') pipeline = pipeline.webp({ quality: 78 });
    const temporary = `${target}.${process.pid}.${Date.now()}.tmp`;
    await pipeline.toFile(temporary);
    // The variant carries its source's modification time: it is remade when they differ, and its
    // ETag (size and mtime) changes exactly when the picture does.
    await utimes(temporary, new Date(), new Date(sourceModified));
    await rename(temporary, target);
  }

  return {
    cacheRoot,

    /** Makes `target` from `read()` unless a copy of the source as modified at `sourceModified` is there. */
    async ensure(
      target: string,
      read: () => Promise<VariantSource>,
      options: { width: number | undefined; format: Format; sourceModified?: number },
    ): Promise<void> {
      const sourceModified = options.sourceModified ?? 0;
      // Made again when the owner replaces the picture under the same name (1 ms: timestamp rounding).
      const variantModified = await modifiedAt(target);
      if (variantModified !== undefined && Math.abs(variantModified - sourceModified) <= 1) return;
      let pending = inFlight.get(target);
      if (!pending) {
        pending = read()
          .then((source) => makeInTurn(source, sourceModified, target, options.width, options.format))
          .finally(() => inFlight.delete(target));
        inFlight.set(target, pending);
      }
      await pending;
    },

    send(res: Response, file: string, cacheControl = CACHE_CONTROL): Promise<void> {
      return new Promise<void>((resolve, reject) =>
        // dotfiles: the paths are ours (checked by the routes), and a cache folder may sit under a dot-folder.
        res.sendFile(
          file,
          {
            cacheControl: false,
            dotfiles: 'allow',
            headers: { 'Cache-Control': cacheControl, Vary: 'Accept' },
          },
          (error) => (error ? reject(error) : resolve()),
        ),
      );
    },
  };
}
