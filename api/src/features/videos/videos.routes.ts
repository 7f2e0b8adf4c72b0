import { createHash } from 'node:crypto';
import path from 'node:path';
import { buffer } from 'node:stream/consumers';
import { Router, type Request } from 'express';
import { z } from 'zod';
import type { VideoStatKind } from '@app/shared/db';
import {
  libraryPageQuerySchema,
  MORE_VIDEOS_SLUG,
  showcasePageUrl,
  videoListQuerySchema,
  VIDEO_WITHDRAWN,
  VIDEO_WITHDRAWN_MESSAGE,
} from '@app/shared/schemas';
import { purposeKey } from '@app/shared/signing';
import { MAX_IMAGE_BYTES } from '@app/shared/images';
import { contentTypeFor, isSafeKey } from '@app/shared/storage';
import { videoAccessSchema, videoIdSchema, verifyVideoPasswordSchema } from '@app/shared/schemas';
import type { Deps } from '../../deps.ts';
import { HttpError, notFound } from '../../http/errors.ts';
import { limits, rateLimiter } from '../../http/rate-limit.ts';
import { GuessGuard, guessRules } from '../../http/guesses.ts';
import { createVideoStatRecorder, isFirstInWindow } from '../video-stats/video-stats.service.ts';
import { libraryMissLog } from '../search-misses/search-miss-log.ts';
import { addressKey } from '../../http/client-address.ts';
import { imageVariants, negotiate, variantQuerySchema } from '../pictures/variants.ts';
import {
  authorizeVideo,
  hasPaidPurchase,
  isValidVideoToken,
  issueVideoToken,
  tokenQuerySchema,
} from './access.ts';
import { unlockedMedia } from '../video-processing/video-processing.service.ts';
import { publicVideo } from './videos.queries.ts';
import { accessCodeRequired, hasShowcaseAccess, requireShowcaseAccess } from '../privacy/showcase-access.ts';
import { showcaseGate } from '../privacy/privacy.service.ts';
import { mediaCacheControl } from '../privacy/visibility.ts';
import { hlsUrlFor, videoStreamingRoutes } from '../video-streaming/video-streaming.routes.ts';
import {
  findShowcaseBySlug,
  libraryShelves,
  listVideos,
  searchPage,
  showcasePage,
  showcaseSummaries,
  videoWithVisibility,
} from './library.service.ts';

const DOWNLOAD_LINK_SECONDS = 3600;

const listParameters = new Set(Object.keys(videoListQuerySchema.shape));

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
  const logMiss = libraryMissLog(deps);
  const guesses = new GuessGuard(deps, guessRules.videoPassword);
  const router = Router();
  const cursorKey = purposeKey(deps.config.SESSION_SECRET, 'video-list-cursor');

  // Every view asks for its video; the row is kept until an admin write changes the content version.
  async function findVideo(id: string) {
    const videoId = videoIdSchema.parse(id);
    const video = await publicCache.value(`video:${videoId}`, () => videoWithVisibility(db, videoId));
    if (!video) throw notFound('Video not found');
    return video;
  }

  /**
   * A hidden video exists only for its buyers: a paid purchase of it under this checkout session. A
   * withdrawn one (taken down) is gone for them too (410, said as such); one behind its showcase's
   * access code needs the code's cookie, or a purchase (docs/decisions/030).
   */
  async function findShownVideo(req: Request, id: string, sessionId: string | undefined) {
    const video = await findVideo(id);
    const bought = async () => Boolean(sessionId && (await hasPaidPurchase(deps, video.id, sessionId)));
    if (!video.shown && !(await bought())) throw notFound('Video not found');
    if (video.withdrawnAt) throw new HttpError(410, VIDEO_WITHDRAWN_MESSAGE, { code: VIDEO_WITHDRAWN });
    if (!hasShowcaseAccess(deps, req, video.gate) && !(await bought())) throw accessCodeRequired();
    return video;
  }

  // Adaptive playback: its playlists are checked with the same lookup and authorization as the links below.
  router.use(videoStreamingRoutes(deps, findShownVideo));

  // The public video list, paged: an array of at most `limit`, the next page in the Link header.
  router.get('/api/videos', async (req, res) => {
    const query = videoListQuerySchema.parse(req.query);
    // First pages are kept like the other lists, searches too (a popular word is asked again and
    // again, and ranking is the costly part); only addresses made of the list's own parameters, so
    // made-up query strings cannot push the others out. Later pages are read each time.
    const keptUrl =
      !query.cursor && Object.keys(req.query).every((name) => listParameters.has(name))
        ? req.originalUrl
        : '/api/videos';
    await publicCache.respond(req, res, keptUrl, async () => {
      const { videos: page, next } = await listVideos(db, cursorKey, query);
      if (next) {
        const params = new URLSearchParams(req.query as Record<string, string>);
        params.set('cursor', next);
        res.set('Link', `</api/videos?${params.toString()}>; rel="next"`);
      }
      return page;
    });
  });

  router.get('/api/showcases', async (req, res) => {
    await publicCache.respond(req, res, '/api/showcases', () => showcaseSummaries(db));
  });

  router.get('/api/library', async (req, res) => {
    await publicCache.respond(req, res, '/api/library', () => libraryShelves(db));
  });

  router.get('/api/library/search', async (req, res) => {
    const query = libraryPageQuerySchema.parse(req.query);
    res.json(await searchPage(db, query, (where) => logMiss({ ...where, text: query.q })));
  });

  router.get('/api/showcases/:slug/videos', async (req, res) => {
    const { page, price } = libraryPageQuerySchema.pick({ page: true, price: true }).parse(req.query);
    const found = await findShowcaseBySlug(db, String(req.params.slug).slice(0, 200));
    if (found.kind === 'missing') throw notFound('Showcase not found');
    if (found.kind === 'moved') {
      res.redirect(301, showcasePageUrl(found.slug, page));
      return;
    }
    if (found.showcase?.privacy === 'code') {
      // Per browser (its cookie), so never kept in memory for everyone.
      requireShowcaseAccess(deps, req, await showcaseGate(db, found.showcase.id));
      res.set({ 'Cache-Control': 'private, no-store', 'X-Robots-Tag': 'noindex' });
      res.json(await showcasePage(db, found.showcase, { page, price }));
      return;
    }
    // Only the plain page addresses are kept in memory (the cache keys on the exact URL).
    const url = showcasePageUrl(found.showcase?.slug ?? MORE_VIDEOS_SLUG, page);
    await publicCache.respond(req, res, url, () => showcasePage(db, found.showcase, { page, price }));
  });

  // ?session_id= lets the buyer of a video hidden since still open its download page.
  // ?token= (a protected video's, from its password) adds its poster frame and clip, behind the token.
  router.get('/api/videos/:id', async (req, res) => {
    const { session_id: sessionId } = sessionQuerySchema.parse(req.query);
    const { token } = tokenQuerySchema.parse(req.query);
    const video = await findShownVideo(req, String(req.params.id), sessionId);
    const answer = await publicVideo(db, video.id);
    const unlocked =
      video.passwordProtected && token && isValidVideoToken(deps, video.id, token)
        ? unlockedMedia({ ...video, previewUrl: answer.previewUrl }, token)
        : {};
    res.set('Cache-Control', 'no-cache').json({ ...answer, ...unlocked });
  });

  // Previews come only from our own storage: a key, never a URL (no open proxy).
  router.get('/api/video-preview/:encoded', async (req, res) => {
    const key = req.params.encoded;
    // Only the previews folder, and only pictures: this route must never hand out a video.
    if (!isSafeKey(key) || !key.startsWith('previews/') || !contentTypeFor(key).startsWith('image/'))
      throw notFound('Preview not found');
    // Gone with a hidden or locked video; a protected video's poster frame only with that video's token.
    const cacheControl = await mediaCacheControl(deps, req, key, 'poster');

    // Every picture goes through sharp (metadata such as GPS stripped), at the width asked (?w=) or
    // its own, made once and kept on disk under the key's digest and the object's size (a replaced
    // preview has another). An object bigger than any picture is never read into memory.
    const { w: width } = variantQuerySchema.parse(req.query);
    const stored = await storage.head(key);
    if (!stored || stored.size > MAX_IMAGE_BYTES) throw notFound('Preview not found');
    const format = negotiate(req.get('accept'));
    const digest = createHash('sha256').update(key).digest('hex').slice(0, 32);
    const extension = format === 'original' ? path.extname(key) : `.${format}`;
    const target = path.join(
      variants.cacheRoot,
      'video-previews',
      `${digest}-${stored.size}.${width ?? 'full'}${extension}`,
    );
    try {
      await variants.ensure(
        target,
        async () => {
          const object = await storage.get(key);
          if (!object) throw notFound('Preview not found');
          return buffer(object.body);
        },
        { width, format },
      );
    } catch (error) {
      if (error instanceof HttpError) throw error;
      // Not a picture sharp can read: nothing to show.
      deps.logger.warn({ err: error, key }, 'preview picture could not be made');
      throw notFound('Preview not found');
    }
    return variants.send(res, target, cacheControl);
  });

  router.post('/api/verify-video-password', rateLimiter(deps, limits.videoPassword), async (req, res) => {
    const { videoId, password } = verifyVideoPasswordSchema.parse(req.body ?? {});
    const video = await findShownVideo(req, videoId, undefined);
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
    const video = await findShownVideo(req, String(req.params.id), proof.sessionId);
    const { purchaseId } = await authorizeVideo(deps, video, proof, guesses.about(req, video.id));
    // The fast-start copy when the original has its index at the end: it plays before it has all arrived.
    const streamUrl = await storage.signedDownloadUrl(video.media?.streamKey ?? video.awsKey, {
      expiresInSeconds: DOWNLOAD_LINK_SECONDS,
    });
    // The adaptive stream when there is one; the link above stays the player's fallback.
    const hlsUrl = hlsUrlFor(deps, video, proof, purchaseId);
    await count(req, video.id, 'view');
    res
      .set('Cache-Control', 'no-store')
      .json({ streamUrl, expiresInSeconds: DOWNLOAD_LINK_SECONDS, ...(hlsUrl && { hlsUrl }) });
  });

  // The video's page was opened (the page sends this once it shows): counted like a view, for the
  // owner's conversion figures; nothing about the visitor is kept beyond the hour's Redis key.
  router.post('/api/videos/:id/visit', rateLimiter(deps, limits.videoVisit), async (req, res) => {
    const video = await findShownVideo(req, String(req.params.id), undefined);
    await count(req, video.id, 'visit');
    res.status(204).end();
  });

  router.post('/api/download/:id', ...linkLimits, async (req, res) => {
    const proof = videoAccessSchema.parse(req.body ?? {});
    const video = await findShownVideo(req, String(req.params.id), proof.sessionId);
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
