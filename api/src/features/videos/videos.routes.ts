import { createHash } from 'node:crypto';
import path from 'node:path';
import { buffer } from 'node:stream/consumers';
import { Router, type Request } from 'express';
import { asc, eq, sql } from 'drizzle-orm';
import { showcases, videos, type Db, type VideoStatKind } from '@app/shared/db';
import { contentTypeFor, isSafeKey } from '@app/shared/storage';
import { sendStoredObject } from '../../http/send-object.ts';
import { videoAccessSchema, videoIdSchema, verifyVideoPasswordSchema } from '@app/shared/schemas';
import type { Deps } from '../../deps.ts';
import { HttpError, notFound } from '../../http/errors.ts';
import { limits, rateLimiter } from '../../http/rate-limit.ts';
import { GuessGuard, guessRules } from '../../http/guesses.ts';
import { createVideoStatRecorder, isFirstInWindow } from '../video-stats/video-stats.service.ts';
import { addressKey } from '../../http/client-address.ts';
import { imageVariants, negotiate, variantQuerySchema } from '../images/images.routes.ts';
import { authorizeVideo, issueVideoToken } from './access.ts';
import { previewClipUrlColumn, previewUrlColumn } from '../video-processing/video-processing.service.ts';

/** What visitors may see of a video: never its password hash or storage key. */
export const publicVideoColumns = {
  id: videos.id,
  title: videos.title,
  description: videos.description,
  tags: videos.tags,
  showcaseId: videos.showcaseId,
  priceCents: videos.priceCents,
  previewUrl: previewUrlColumn,
  previewClipUrl: previewClipUrlColumn,
  passwordProtected: videos.passwordProtected,
  createdAt: videos.createdAt,
};

/**
 * The video library's lists, as their routes answer them: also rendered into the /videos page
 * (api/src/web.ts).
 */
export const videoLibraryLists = {
  // Showcase order (lower first), videos without a showcase last, newest first within one.
  '/api/videos': (db: Db) =>
    db
      .select(publicVideoColumns)
      .from(videos)
      .leftJoin(showcases, eq(showcases.id, videos.showcaseId))
      .orderBy(
        sql`${showcases.orderPriority} asc nulls last`,
        asc(showcases.createdAt),
        sql`${videos.createdAt} desc`,
      ),
  '/api/showcases': (db: Db) =>
    db.select().from(showcases).orderBy(asc(showcases.orderPriority), asc(showcases.createdAt)),
};

const DOWNLOAD_LINK_SECONDS = 3600;

const fileName = (title: string, key: string) =>
  `${
    title
      .replace(/[^\w\- ]+/g, '')
      .trim()
      .replace(/\s+/g, '-')
      .slice(0, 80) || 'video'
  }${key.slice(key.lastIndexOf('.'))}`;

export function videoRoutes(deps: Deps): Router {
  const { db, storage, publicCache } = deps;
  const variants = imageVariants(deps.config.IMAGE_CACHE_DIR);
  const recordVideoStat = createVideoStatRecorder(deps);
  const guesses = new GuessGuard(deps, guessRules.videoPassword);
  const router = Router();

  // Every view asks for its video; the row is kept until an admin write changes the content version.
  async function findVideo(id: string) {
    const videoId = videoIdSchema.parse(id);
    const video = await publicCache.value(`video:${videoId}`, async () => {
      const [row] = await db.select().from(videos).where(eq(videos.id, videoId));
      return row;
    });
    if (!video) throw notFound('Video not found');
    return video;
  }

  router.get('/api/videos', async (req, res) => {
    await publicCache.respond(req, res, '/api/videos', () => videoLibraryLists['/api/videos'](db));
  });

  router.get('/api/showcases', async (req, res) => {
    await publicCache.respond(req, res, '/api/showcases', () => videoLibraryLists['/api/showcases'](db));
  });

  router.get('/api/videos/:id', async (req, res) => {
    const [video] = await db
      .select(publicVideoColumns)
      .from(videos)
      .where(eq(videos.id, videoIdSchema.parse(req.params.id)));
    if (!video) throw notFound('Video not found');
    res.set('Cache-Control', 'no-cache').json(video);
  });

  // Previews come only from our own storage: a key, never a URL (no open proxy).
  router.get('/api/video-preview/:encoded', async (req, res) => {
    const key = req.params.encoded;
    // Only the previews folder, and only pictures: this route must never hand out a video.
    if (!isSafeKey(key) || !key.startsWith('previews/') || !contentTypeFor(key).startsWith('image/'))
      throw notFound('Preview not found');

    // A width (?w=, as for our own pictures) is made from the stored preview once and kept on disk,
    // under the key's digest and the object's size (a replaced preview has another).
    const { w: width } = variantQuerySchema.parse(req.query);
    if (width) {
      const stored = await storage.head(key);
      if (!stored) throw notFound('Preview not found');
      const format = negotiate(req.get('accept'));
      const digest = createHash('sha256').update(key).digest('hex').slice(0, 32);
      const extension = format === 'original' ? path.extname(key) : `.${format}`;
      const target = path.join(
        variants.cacheRoot,
        'video-previews',
        `${digest}-${stored.size}.${width}${extension}`,
      );
      await variants.ensure(
        target,
        async () => {
          const object = await storage.get(key);
          if (!object) throw notFound('Preview not found');
          return buffer(object.body);
        },
        { width, format },
      );
      return variants.send(res, target);
    }
    // From S3, a redirect to the bucket: the api never carries its bytes.
    await sendStoredObject(
      req,
      res,
      storage,
      key,
      { 'Cache-Control': 'public, max-age=86400' },
      'Preview not found',
    );
  });

  router.post('/api/verify-video-password', rateLimiter(deps, limits.videoPassword), async (req, res) => {
    const { videoId, password } = verifyVideoPasswordSchema.parse(req.body ?? {});
    const video = await findVideo(videoId);
    if (!video.passwordProtected) throw new HttpError(400, 'This video has no password');
    await authorizeVideo(deps, { ...video, priceCents: 0 }, { password }, guesses.about(req, video.id));
    res.json(issueVideoToken(deps, video.id));
  });

  const linkLimits = [rateLimiter(deps, limits.videoLink), rateLimiter(deps, limits.videoPasswordGuess)];
  const count = async (req: Request, videoId: string, kind: VideoStatKind) => {
    if (await isFirstInWindow(deps, kind, videoId, addressKey(req.ip))) await recordVideoStat(videoId, kind);
  };

  router.post('/api/video-stream/:id', ...linkLimits, async (req, res) => {
    const video = await findVideo(String(req.params.id));
    await authorizeVideo(deps, video, videoAccessSchema.parse(req.body ?? {}), guesses.about(req, video.id));
    // The fast-start copy when the original has its index at the end: it plays before it has all arrived.
    const streamUrl = await storage.signedDownloadUrl(video.media?.streamKey ?? video.awsKey, {
      expiresInSeconds: DOWNLOAD_LINK_SECONDS,
    });
    await count(req, video.id, 'view');
    res.set('Cache-Control', 'no-store').json({ streamUrl, expiresInSeconds: DOWNLOAD_LINK_SECONDS });
  });

  router.post('/api/download/:id', ...linkLimits, async (req, res) => {
    const video = await findVideo(String(req.params.id));
    await authorizeVideo(deps, video, videoAccessSchema.parse(req.body ?? {}), guesses.about(req, video.id));
    const downloadUrl = await storage.signedDownloadUrl(video.awsKey, {
      expiresInSeconds: DOWNLOAD_LINK_SECONDS,
      fileName: fileName(video.title, video.awsKey),
    });
    await count(req, video.id, 'download');
    res.set('Cache-Control', 'no-store').json({ downloadUrl, expiresInSeconds: DOWNLOAD_LINK_SECONDS });
  });

  return router;
}
