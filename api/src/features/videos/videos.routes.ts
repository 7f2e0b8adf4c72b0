import { createHash } from 'node:crypto';
import path from 'node:path';
import { buffer } from 'node:stream/consumers';
import { Router, type Request } from 'express';
import { and, asc, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
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
import { authorizeVideo, hasPaidPurchase, issueVideoToken } from './access.ts';
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

/** Shown to the public: neither the video nor its showcase is hidden (a query joined with showcases). */
export const publishedVideo = and(eq(videos.published, true), sql`coalesce(${showcases.published}, true)`);

/** A video's row and whether the public may see it (`shown`). */
export async function videoWithVisibility(db: Db, id: string) {
  const [row] = await db
    .select({ video: videos, shown: sql<boolean>`${publishedVideo}` })
    .from(videos)
    .leftJoin(showcases, eq(showcases.id, videos.showcaseId))
    .where(eq(videos.id, id));
  return row && { ...row.video, shown: row.shown };
}

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
      .where(publishedVideo)
      .orderBy(
        sql`${showcases.orderPriority} asc nulls last`,
        asc(showcases.createdAt),
        sql`${videos.createdAt} desc`,
      ),
  '/api/showcases': (db: Db) =>
    db
      .select()
      .from(showcases)
      .where(eq(showcases.published, true))
      .orderBy(asc(showcases.orderPriority), asc(showcases.createdAt)),
};

const DOWNLOAD_LINK_SECONDS = 3600;

const sessionQuerySchema = z.object({ session_id: z.string().trim().min(1).max(255).optional() });

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
    const video = await publicCache.value(`video:${videoId}`, () => videoWithVisibility(db, videoId));
    if (!video) throw notFound('Video not found');
    return video;
  }

  /** A hidden video exists only for its buyers: a paid purchase of it under this checkout session. */
  async function findShownVideo(id: string, sessionId: string | undefined) {
    const video = await findVideo(id);
    if (!video.shown && !(sessionId && (await hasPaidPurchase(deps, video.id, sessionId))))
      throw notFound('Video not found');
    return video;
  }

  router.get('/api/videos', async (req, res) => {
    await publicCache.respond(req, res, '/api/videos', () => videoLibraryLists['/api/videos'](db));
  });

  router.get('/api/showcases', async (req, res) => {
    await publicCache.respond(req, res, '/api/showcases', () => videoLibraryLists['/api/showcases'](db));
  });

  // ?session_id= lets the buyer of a video hidden since still open its download page.
  router.get('/api/videos/:id', async (req, res) => {
    const { session_id: sessionId } = sessionQuerySchema.parse(req.query);
    const { id } = await findShownVideo(String(req.params.id), sessionId);
    const [video] = await db.select(publicVideoColumns).from(videos).where(eq(videos.id, id));
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
    const video = await findShownVideo(videoId, undefined);
    if (!video.passwordProtected) throw new HttpError(400, 'This video has no password');
    await authorizeVideo(deps, { ...video, priceCents: 0 }, { password }, guesses.about(req, video.id));
    res.json(issueVideoToken(deps, video.id));
  });

  const linkLimits = [rateLimiter(deps, limits.videoLink), rateLimiter(deps, limits.videoPasswordGuess)];
  const count = async (req: Request, videoId: string, kind: VideoStatKind) => {
    if (await isFirstInWindow(deps, kind, videoId, addressKey(req.ip))) await recordVideoStat(videoId, kind);
  };

  router.post('/api/video-stream/:id', ...linkLimits, async (req, res) => {
    const proof = videoAccessSchema.parse(req.body ?? {});
    const video = await findShownVideo(String(req.params.id), proof.sessionId);
    await authorizeVideo(deps, video, proof, guesses.about(req, video.id));
    // The fast-start copy when the original has its index at the end: it plays before it has all arrived.
    const streamUrl = await storage.signedDownloadUrl(video.media?.streamKey ?? video.awsKey, {
      expiresInSeconds: DOWNLOAD_LINK_SECONDS,
    });
    await count(req, video.id, 'view');
    res.set('Cache-Control', 'no-store').json({ streamUrl, expiresInSeconds: DOWNLOAD_LINK_SECONDS });
  });

  router.post('/api/download/:id', ...linkLimits, async (req, res) => {
    const proof = videoAccessSchema.parse(req.body ?? {});
    const video = await findShownVideo(String(req.params.id), proof.sessionId);
    await authorizeVideo(deps, video, proof, guesses.about(req, video.id));
    const downloadUrl = await storage.signedDownloadUrl(video.awsKey, {
      expiresInSeconds: DOWNLOAD_LINK_SECONDS,
      fileName: fileName(video.title, video.awsKey),
    });
    await count(req, video.id, 'download');
    res.set('Cache-Control', 'no-store').json({ downloadUrl, expiresInSeconds: DOWNLOAD_LINK_SECONDS });
  });

  return router;
}
