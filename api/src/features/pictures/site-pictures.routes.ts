import path from 'node:path';
import { Router } from 'express';
import type { Deps } from '../../deps.ts';
import { notFound } from '../../http/errors.ts';
import { imageVariants, modifiedAt, negotiate, variantQuerySchema } from './variants.ts';

/** The folders of IMAGES_DIR the site's pages show pictures from, and the file names they may have. */
const IMAGE_FOLDERS = ['hero', 'portfolio', 'attached_assets', 'previews'] as const;
const safeFileName = /^[A-Za-z0-9][A-Za-z0-9._-]{0,150}\.(jpe?g|png|webp|avif)$/i;

/** Our own pictures, in the width and format the browser asks for. */
export function sitePictureRoutes({ config }: Deps): Router {
  const router = Router();
  const sourceRoot = path.resolve(config.IMAGES_DIR);
  const variants = imageVariants(config.IMAGE_CACHE_DIR);

  router.get('/api/images/:folder/:file', async (req, res) => {
    const { folder, file } = req.params;
    if (!(IMAGE_FOLDERS as readonly string[]).includes(folder) || !safeFileName.test(file))
      throw notFound('Image not found');
    const source = path.join(sourceRoot, folder, file);
    const sourceModified = await modifiedAt(source);
    if (sourceModified === undefined) throw notFound('Image not found');

    const { w: width } = variantQuerySchema.parse(req.query);
    const format = negotiate(req.get('accept'));
    if (!width && format === 'original') return variants.send(res, source);

    const extension = format === 'original' ? path.extname(file) : `.${format}`;
    const target = path.join(variants.cacheRoot, folder, `${file}.${width ?? 'full'}${extension}`);
    await variants.ensure(target, async () => source, { width, format, sourceModified });
    await variants.send(res, target);
  });

  return router;
}
