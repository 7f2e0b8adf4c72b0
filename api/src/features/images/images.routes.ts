import { mkdir, rename, stat } from 'node:fs/promises';
import path from 'node:path';
import { Router, type Response } from 'express';
import sharp from 'sharp';
import { z } from 'zod';
import { IMAGE_WIDTHS } from '@app/shared/images';
import type { Deps } from '../../deps.ts';
import { notFound } from '../../http/errors.ts';

export const IMAGE_FOLDERS = ['hero', 'portfolio', 'attached_assets', 'previews'] as const;
const safeFileName = /^[A-Za-z0-9][A-Za-z0-9._-]{0,150}\.(jpe?g|png|webp|avif)$/i;

const variantQuerySchema = z.object({
  w: z.coerce
    .number()
    .refine(
      (width) => (IMAGE_WIDTHS as readonly number[]).includes(width),
      `w must be one of ${IMAGE_WIDTHS.join(', ')}`,
    )
    .optional(),
});

type Format = 'avif' | 'webp' | 'original';

/** AVIF, then WebP, when the browser says it takes them. */
function negotiate(accept: string | undefined): Format {
  if (accept?.includes('image/avif')) return 'avif';
  if (accept?.includes('image/webp')) return 'webp';
  return 'original';
}

const modifiedAt = (file: string) =>
  stat(file).then(
    (info) => (info.isFile() ? info.mtimeMs : undefined),
    () => undefined,
  );

/**
 * Our own pictures, in the width and format the browser asks for. Variants are made once with sharp
 * and kept on disk; responses carry ETags and a day of caching (the names are not content hashes).
 */
export function imageRoutes({ config }: Deps): Router {
  const router = Router();
  const sourceRoot = path.resolve(config.IMAGES_DIR);
  const cacheRoot = path.resolve(config.IMAGE_CACHE_DIR);
  const inFlight = new Map<string, Promise<void>>();

  async function variant(source: string, target: string, width: number | undefined, format: Format) {
    let pending = inFlight.get(target);
    if (!pending) {
      pending = (async () => {
        await mkdir(path.dirname(target), { recursive: true });
        let pipeline = sharp(source).rotate();
        if (width) pipeline = pipeline.resize({ width, withoutEnlargement: true });
        if (format === 'avif') pipeline = pipeline.avif({ quality: 55, effort: 2 });
        else if (format === 'webp') pipeline = pipeline.webp({ quality: 78 });
        const temporary = `${target}.${process.pid}.${Date.now()}.tmp`;
        await pipeline.toFile(temporary);
        await rename(temporary, target);
      })().finally(() => inFlight.delete(target));
      inFlight.set(target, pending);
    }
    return pending;
  }

  function send(res: Response, file: string) {
    return new Promise<void>((resolve, reject) =>
      // dotfiles: the paths are ours (checked above), and a cache folder may sit under a dot-folder.
      res.sendFile(file, { maxAge: '1d', dotfiles: 'allow', headers: { Vary: 'Accept' } }, (error) =>
        error ? reject(error) : resolve(),
      ),
    );
  }

  router.get('/api/images/:folder/:file', async (req, res) => {
    const { folder, file } = req.params;
    if (!(IMAGE_FOLDERS as readonly string[]).includes(folder) || !safeFileName.test(file))
      throw notFound('Image not found');
    const source = path.join(sourceRoot, folder, file);
    const sourceModified = await modifiedAt(source);
    if (sourceModified === undefined) throw notFound('Image not found');

    const { w: width } = variantQuerySchema.parse(req.query);
    const format = negotiate(req.get('accept'));
    if (!width && format === 'original') return send(res, source);

    const extension = format === 'original' ? path.extname(file) : `.${format}`;
    const target = path.join(cacheRoot, folder, `${file}.${width ?? 'full'}${extension}`);
    // Made again when the owner replaces the picture under the same name.
    if (((await modifiedAt(target)) ?? -1) < sourceModified) await variant(source, target, width, format);
    await send(res, target);
  });

  return router;
}
