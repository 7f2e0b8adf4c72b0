import type { Router } from 'express';
import {
  adminVideoListQuerySchema,
  bulkVideoActionSchema,
  insertShowcaseSchema,
  insertVideoSchema,
  textIdSchema,
  updateShowcaseSchema,
  updateVideoSchema,
} from '@app/shared/schemas';
import { alertsAfterPublish } from '@app/shared/queue';
import type { Deps } from '../../deps.ts';
import { setShowcasePublished, setVideoPublished } from './video-publishing.service.ts';
import { adminShowcases, createShowcase, updateShowcase } from './showcases.service.ts';
import {
  bulkVideoAction,
  createVideo,
  listAdminVideos,
  removeVideo,
  updateVideo,
} from './video-admin.service.ts';

/** The owner's videos and showcases (all on the admin router, so all need the session). */
export function registerVideoAdminRoutes(admin: Router, deps: Deps): void {
  const { db, publicCache, storage } = deps;

  admin.get('/api/admin/videos', async (req, res) => {
    const query = adminVideoListQuerySchema.parse(req.query);
    res.set('Cache-Control', 'no-store').json(await listAdminVideos(deps, query));
  });

  admin.post('/api/admin/videos/bulk', async (req, res) => {
    const result = await bulkVideoAction(deps, bulkVideoActionSchema.parse(req.body ?? {}));
    if (result.changed > 0) await Promise.all([publicCache.changed(), alertsAfterPublish(deps)]);
    res.json(result);
  });

  // Each write then tells the public cache, before answering, so no replica lists the old video after it.
  // A video saved or published may answer "tell me when it is online" alerts (decision 035).
  admin.post('/api/admin/videos', async (req, res) => {
    const video = await createVideo(deps, insertVideoSchema.parse(req.body ?? {}));
    await Promise.all([publicCache.changed(), alertsAfterPublish(deps)]);
    res.status(201).json(video);
  });

  admin.put('/api/admin/videos/:id', async (req, res) => {
    const id = textIdSchema.parse(req.params.id);
    const video = await updateVideo(deps, id, updateVideoSchema.parse(req.body ?? {}));
    await Promise.all([publicCache.changed(), alertsAfterPublish(deps)]);
    res.json(video);
  });

  admin.delete('/api/admin/videos/:id', async (req, res) => {
    const id = textIdSchema.parse(req.params.id);
    await removeVideo(deps, id);
    await publicCache.changed();
    res.json({ id, deleted: true });
  });

  // Hide takes a video (or a showcase with its videos) off the public site at once; publish brings it back.
  for (const [action, published] of [
    ['hide', false],
    ['publish', true],
  ] as const) {
    admin.post(`/api/admin/videos/:id/${action}`, async (req, res) => {
      const id = textIdSchema.parse(req.params.id);
      const video = await setVideoPublished({ db, storage }, id, published);
      await Promise.all([publicCache.changed(), published && alertsAfterPublish(deps)]);
      res.json(video);
    });

    admin.post(`/api/admin/showcases/:id/${action}`, async (req, res) => {
      const showcase = await setShowcasePublished(db, textIdSchema.parse(req.params.id), published);
      await Promise.all([publicCache.changed(), published && alertsAfterPublish(deps)]);
      res.json(showcase);
    });
  }

  admin.get('/api/admin/showcases', async (_req, res) => {
    res.set('Cache-Control', 'no-store').json(await adminShowcases(deps));
  });

  admin.post('/api/admin/showcases', async (req, res) => {
    const showcase = await createShowcase(deps, insertShowcaseSchema.parse(req.body ?? {}));
    await publicCache.changed();
    res.status(201).json(showcase);
  });

  admin.patch('/api/admin/showcases/:id', async (req, res) => {
    const id = textIdSchema.parse(req.params.id);
    const showcase = await updateShowcase(deps, id, updateShowcaseSchema.parse(req.body ?? {}));
    await publicCache.changed();
    res.json(showcase);
  });
}
