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
import type { Deps } from '../../deps.ts';
import { alertsAfterPublish } from '../online-alerts/online-alerts.service.ts';
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

  // A video saved published (or moved to an entry) may answer "tell me when it is online" alerts.
  const thenAlerts = async <T>(result: T) => (await alertsAfterPublish(deps), result);
  publicCache.writeRoutes(admin, '/api/admin/videos', textIdSchema, {
    post: async (body) => thenAlerts(await createVideo(deps, insertVideoSchema.parse(body))),
    put: async (id, body) => thenAlerts(await updateVideo(deps, id, updateVideoSchema.parse(body))),
    delete: (id) => removeVideo(deps, id),
  });

  // Hide takes a video (or a showcase with its videos) off the public site at once; publish brings it back.
  for (const [action, published] of [
    ['hide', false],
    ['publish', true],
  ] as const) {
    admin.post(
      `/api/admin/videos/:id/${action}`,
      publicCache.writeRoute(async (req) => {
        const result = await setVideoPublished({ db, storage }, textIdSchema.parse(req.params.id), published);
        return published ? thenAlerts(result) : result;
      }),
    );
    admin.post(
      `/api/admin/showcases/:id/${action}`,
      publicCache.writeRoute(async (req) => {
        const result = await setShowcasePublished(db, textIdSchema.parse(req.params.id), published);
        return published ? thenAlerts(result) : result;
      }),
    );
  }

  admin.get('/api/admin/showcases', async (_req, res) => {
    res.set('Cache-Control', 'no-store').json(await adminShowcases(deps));
  });

  publicCache.writeRoutes(admin, '/api/admin/showcases', textIdSchema, {
    post: (body) => createShowcase(deps, insertShowcaseSchema.parse(body)),
    patch: (id, body) => updateShowcase(deps, id, updateShowcaseSchema.parse(body)),
  });
}
