import { Router } from 'express';
import { createImageRequestSchema, imageUploadUrlRequestSchema } from '@app/shared/schemas';
import { hasAvifVariant } from '@app/shared/images';
import { variantKey, type VariantFormat } from '@app/shared/storage';
import type { Deps } from '../../deps.ts';
import { notFound } from '../../http/errors.ts';
import { negotiate, variantQuerySchema } from './variants.ts';
import { planUpload } from '../uploads/uploads.service.ts';
import {
  adminImage,
  adminImages,
  imageIdSchema,
  readyImageVariants,
  recordUpload,
} from './uploaded-photos.service.ts';

const formatOf: Record<ReturnType<typeof negotiate>, VariantFormat> = {
  avif: 'avif',
  webp: 'webp',
  original: 'jpeg',
};

/** Uploaded pictures, public: `/api/photos/<id>?w=` in the width and format the browser takes. */
export function uploadedPhotoRoutes({ db, storage, publicCache }: Deps): Router {
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

/** The owner's uploads of pictures and the image picker's list; on the admin router. */
export function registerUploadedPhotoAdminRoutes(admin: Router, deps: Deps): void {
  const { db, storage } = deps;

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
}
