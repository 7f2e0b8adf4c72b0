import { Router } from 'express';
import { z } from 'zod';
import { isSafeKey } from '@app/shared/storage';
import type { Deps } from '../../deps.ts';
import { notFound } from '../../http/errors.ts';
import { sendStoredObject } from '../../http/send-object.ts';
import { processAgain, sweepVideoStreams } from './video-processing.service.ts';

const idSchema = z.string().trim().min(1).max(100);

/** Preview clips are public (they are the shop window) and cacheable; only clips/ keys, never a video itself. */
export function videoClipRoutes({ storage }: Deps): Router {
  const router = Router();
  router.get('/api/video-clips/:encoded', async (req, res) => {
    const key = req.params.encoded;
    if (!isSafeKey(key) || !/^clips\/[a-f0-9]{24}\.mp4$/.test(key)) throw notFound('Preview clip not found');
    await sendStoredObject(req, res, storage, key, { 'Cache-Control': 'public, max-age=86400' });
  });
  return router;
}

/** The owner's "Process again" (the admin router: needs the session). */
export function registerVideoProcessingRoutes(admin: Router, deps: Deps): void {
  admin.post('/api/admin/videos/:id/process', async (req, res) => {
    const id = idSchema.parse(req.params.id);
    res.status(202).json(await processAgain(deps, id));
  });
  // Adaptive streams for the videos processed before they existed (decision 028).
  admin.post('/api/admin/videos/streams/sweep', async (_req, res) => {
    res.status(202).json(await sweepVideoStreams(deps));
  });
}
