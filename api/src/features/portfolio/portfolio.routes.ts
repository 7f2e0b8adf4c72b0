import { Router, type Router as ExpressRouter } from 'express';
import { hasAvifVariant } from '@app/shared/images';
import {
  createImageRequestSchema,
  createPortfolioPhotoSchema,
  imageUploadUrlRequestSchema,
  replacePortfolioPhotoSchema,
  serialIdSchema,
  updatePortfolioPhotoSchema,
} from '@app/shared/schemas';
import { variantKey, type VariantFormat } from '@app/shared/storage';
import type { Deps } from '../../deps.ts';
import { notFound } from '../../http/errors.ts';
import { planUpload } from '../uploads/uploads.service.ts';
import { negotiate, variantQuerySchema } from '../pictures/site-pictures.service.ts';
import {
  adminImage,
  adminImages,
  adminPortfolio,
  createPhoto,
  deletePhoto,
  imageIdSchema,
  readyImageVariants,
  recordUpload,
  replacePhoto,
  updatePhoto,
} from './portfolio.service.ts';

const photoIdSchema = serialIdSchema('Photo');

const formatOf: Record<ReturnType<typeof negotiate>, VariantFormat> = {
  avif: 'avif',
  webp: 'webp',
  original: 'jpeg',
};

/** Uploaded pictures, public: `/api/photos/<id>?w=` in the width and format the browser takes. */
export function photoRoutes({ db, storage, publicCache }: Deps): ExpressRouter {
  const router = Router();
  router.get('/api/photos/:id', async (req, res) => {
    const parsedId = imageIdSchema.safeParse(req.params.id);
    if (!parsedId.success) throw notFound('Image not found');
    const { w } = variantQuerySchema.parse(req.query);
    const image = await publicCache.value(`photo:${parsedId.data}`, () =>
      readyImageVariants(db, parsedId.data),
    );
    if (!image?.widths?.length) throw notFound('Image not found');
    // The asked width, or the next one made (a picture narrower than it was never enlarged).
    const width = image.widths.find((made) => made >= (w ?? Infinity)) ?? image.widths.at(-1)!;
    let format = formatOf[negotiate(req.get('accept'))];
    // The widest variants of a tall picture are not made in AVIF (MAX_AVIF_PIXELS): WebP instead.
    if (format === 'avif' && !hasAvifVariant(width, image.width!, image.height!)) format = 'webp';
    const object = await storage.get(variantKey(parsedId.data, width, format));
    if (!object) throw notFound('Image not found');
    res.set({
      'Content-Type': object.contentType,
      'Content-Length': String(object.size),
      // A picture never changes under its id: a replacement is a new image.
      'Cache-Control': 'public, max-age=31536000, immutable',
      Vary: 'Accept',
    });
    object.body.pipe(res);
  });
  return router;
}

/** The owner's portfolio (/admin/portfolio) and uploaded pictures (the image picker). */
export function registerPortfolioRoutes(admin: ExpressRouter, deps: Deps): void {
  const { db, storage, publicCache } = deps;

  // Pictures go to `uploads/`, which no route serves: the camera's metadata is public only once stripped.
  admin.post('/api/admin/images/upload-url', async (req, res) => {
    const request = imageUploadUrlRequestSchema.parse(req.body ?? {});
    const target = await planUpload(storage, request, 'uploads');
    res.set('Cache-Control', 'no-store').json(target);
  });

  admin.post('/api/admin/images', async (req, res) => {
    const image = await recordUpload(deps, createImageRequestSchema.parse(req.body ?? {}));
    res.status(201).json(await adminImage(db, image.id));
  });

  /** Every picture the picker can offer: uploaded and processed ones, portfolio photos among them. */
  admin.get('/api/admin/images', async (_req, res) => {
    res.set('Cache-Control', 'no-store').json(await adminImages(db, { readyOnly: true }));
  });

  admin.get('/api/admin/images/:id', async (req, res) => {
    res.set('Cache-Control', 'no-store').json(await adminImage(db, req.params.id));
  });

  admin.get('/api/admin/portfolio', async (_req, res) => {
    res.set('Cache-Control', 'no-store').json(await adminPortfolio(db));
  });

  // Each write then tells the public cache, before answering, so no page shows the old portfolio after it.
  admin.post('/api/admin/portfolio', async (req, res) => {
    const photo = await createPhoto(deps, createPortfolioPhotoSchema.parse(req.body ?? {}));
    await publicCache.changed();
    res.status(201).json(photo);
  });

  admin.patch('/api/admin/portfolio/:id', async (req, res) => {
    const id = photoIdSchema.parse(req.params.id);
    const photo = await updatePhoto(db, id, updatePortfolioPhotoSchema.parse(req.body ?? {}));
    await publicCache.changed();
    res.json(photo);
  });

  admin.post('/api/admin/portfolio/:id/replace', async (req, res) => {
    const id = photoIdSchema.parse(req.params.id);
    res.json(await replacePhoto(deps, id, replacePortfolioPhotoSchema.parse(req.body ?? {})));
  });

  // deletePhoto tells the cache itself: the photo's pictures go only after the lists have moved on.
  admin.delete('/api/admin/portfolio/:id', async (req, res) => {
    const id = photoIdSchema.parse(req.params.id);
    await deletePhoto(deps, id);
    res.json({ id, deleted: true });
  });
}
