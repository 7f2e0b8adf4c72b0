import type { Router } from 'express';
import {
  createImageRequestSchema,
  createPortfolioPhotoSchema,
  imageUploadUrlRequestSchema,
  replacePortfolioPhotoSchema,
  serialIdSchema,
  updatePortfolioPhotoSchema,
} from '@app/shared/schemas';
import type { Deps } from '../../deps.ts';
import { planUpload } from '../uploads/uploads.service.ts';
import {
  adminImage,
  adminImages,
  adminPortfolio,
  createPhoto,
  deletePhoto,
  recordUpload,
  replacePhoto,
  updatePhoto,
} from './portfolio.service.ts';

const photoIdSchema = serialIdSchema('Photo');

/** The owner's portfolio (/admin/portfolio) and uploaded pictures (the image picker). */
export function registerPortfolioRoutes(admin: Router, deps: Deps): void {
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
