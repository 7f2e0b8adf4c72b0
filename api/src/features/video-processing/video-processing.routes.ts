import { Router } from 'express';
import { z } from 'zod';
import { isSafeKey } from '@app/shared/storage';
import type { Deps } from '../../deps.ts';
import { notFound } from '../../http/errors.ts';
import { sendStoredObject } from '../../http/send-object.ts';
import { processAgain, sweepVideoStreams } from './video-processing.service.ts';
import { mediaCacheControl } from '../privacy/visibility.ts';

const idSchema = z.string().trim().min(1).max(100);

/**
 * Preview clips of paid videos are public (they are the shop window), kept a minute; a protected
 * video's clip goes only to a request carrying its token, uncached. Only clips/ keys, never a video.
 */
export function videoClipRoutes(deps: Deps): Router {
  const router = Router();
  router.get('/api/video-clips/:encoded', async (req, res) => {
    const key = req.params.encoded;
    if (!isSafeKey(key) || !/^clips\/[a-f0-9]{24}\.mp4$/.test(key)) throw notFound('Preview clip not found');
    const cacheControl = await mediaCacheControl(deps, req, key, 'clip');
    // From S3, a one-minute link: a clip taken down is gone for everyone within a minute there too.
    await sendStoredObject(
      req,
      res,
      deps.storage,
      key,
      { 'Cache-Control': cacheControl },
      'Preview clip not found',
      {
        linkSeconds: 60,
      },
    );
  });
  return router;
}

/** The owner's "Process again" (the admin router: needs the session). */
export function registerVideoProcessingRoutes(admin: Router, deps: Deps): void {
  admin.post('/api/admin/videos/:id/process', async (req, res) => {
    const id = idSchema.parse(req.params.id);
    res.status(202).json(await processAgain(deps, id));
  });
  // Adaptive streams for the videos processed before they existed (decision 031).
  admin.post('/api/admin/videos/streams/sweep', async (_req, res) => {
    res.status(202).json(await sweepVideoStreams(deps));
  });
}
