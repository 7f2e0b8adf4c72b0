import type { Router } from 'express';
import {
  createPortfolioPhotoSchema,
  replacePortfolioPhotoSchema,
  serialIdSchema,
  updatePortfolioPhotoSchema,
} from '@app/shared/schemas';
import type { Deps } from '../../deps.ts';
import { adminPortfolio, createPhoto, deletePhoto, replacePhoto, updatePhoto } from './portfolio.service.ts';

const photoIdSchema = serialIdSchema('Photo');

/** The owner's portfolio (/admin/portfolio). */
export function registerPortfolioRoutes(admin: Router, deps: Deps): void {
  const { db, publicCache } = deps;

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
